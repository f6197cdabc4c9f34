"""``python -m nimproof`` runs the command line."""

from nimproof.cli.main import main

raise SystemExit(main())
