"""The ``nimproof`` command line: one module per command, assembled in :mod:`.main`."""
