"""`python -m runner` is the `cookbook` command."""

from runner.cli import entry

entry()
