import sys

from toolkit.cli import main

sys.exit(main())
