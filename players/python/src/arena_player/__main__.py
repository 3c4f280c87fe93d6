"""`python3 -m arena_player PATH [CLASS]`: serves the protocol on
stdin/stdout for the Python player at PATH (a course folder, a course file,
or a native player file); CLASS picks one of the file's classes. The arena
runs this for `python:PATH` and `python:PATH:CLASS` players."""

from __future__ import annotations

import sys

from .load import LoadFailure, load
from .serve import serve
from .wire import Channel, ProtocolError

USAGE = (
    "usage: python3 -m arena_player PATH [CLASS]  "
    "(a folder holding PlayerAI.py, or a player .py file; CLASS: the player class to run)"
)


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 2
    channel = Channel.take_standard_streams()
    try:
        session = load(*argv)
    except LoadFailure as failure:
        channel.send({"type": "error", "message": str(failure)})
        return 3
    try:
        serve(session, channel)
    except ProtocolError as error:
        print(f"arena_player: {error}", file=sys.stderr)
        return 4
    except BrokenPipeError:
        return 0  # the arena is gone
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
