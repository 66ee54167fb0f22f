"""The map editor: set hex attributes and hexside features by hand or
from a CSV, many at once as one undoable campaign event.

``vocab`` is each game's hex-attribute vocabulary (the attributes its rules modules read, with the
rule that reads each); ``events`` the bulk event ``MapEdited`` (painted or imported); ``csvimport``
reads and validates a map CSV row by row; ``commands`` builds the event; ``cli`` is
``campaign map import``; ``widget`` the dashboard's editor.
"""
