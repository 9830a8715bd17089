import sys

from routing.cli import main

sys.exit(main())
