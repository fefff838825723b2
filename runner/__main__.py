"""`python -m runner` is the `cookbook` command."""

import sys

from runner.cli import main

sys.exit(main())
