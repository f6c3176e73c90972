"""``python -m fasturi``: the command line."""

from fasturi._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
