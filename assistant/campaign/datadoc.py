"""Print the data dictionary, ``docs/data.md``: ``python -m assistant.campaign.datadoc > docs/data.md``
(every analysts' table, its columns, their dtypes, units and rules: ``exporttables.data_dictionary``)."""

from .exporttables import data_dictionary

if __name__ == "__main__":
    print(data_dictionary(), end="")
