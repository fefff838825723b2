"""The openCypher TCK plugin: its hooks live in tests/tck/plugin.py, loaded by the root conftest.py so
that `--tck-features` and the other options are known wherever pytest starts."""
