"""The player's own map scan: a photo or scan of a map section, aligned by
three known hexes and shown under the hex grid, so the screen matches the table.

``align`` is the affine transform from three control points; ``events`` the ``scan`` slice
(the image's local path and pixel size, the points and the transform: the image itself never
enters the campaign); ``commands`` validate and build ``ScanAligned``/``ScanRemoved``;
``render`` warps the image into the board plane once (one picture, no per-hex work); ``cli``
is ``campaign scan``; ``widget`` the dashboard's view.
"""
