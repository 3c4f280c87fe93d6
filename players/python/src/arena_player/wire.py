"""Frames of the arena protocol (docs/protocol.md): a 4-byte little-endian
length N, then N bytes of UTF-8 JSON holding one object."""

from __future__ import annotations

import json
import os
import select
import struct
import sys
from typing import Any

PROTOCOL_VERSION = 1
MAX_FRAME = 2 << 20

Message = dict[str, Any]

class ProtocolError(Exception):
    """Bytes on the input that are not a frame of the protocol."""


# One encoder for every frame: json.dumps with options builds a new one per call.
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def encode(message: Message) -> bytes:
    payload = _ENCODER.encode(message).encode()
    if not 1 <= len(payload) <= MAX_FRAME:
        raise ProtocolError(f"a message of {len(payload)} bytes does not fit in a frame")
    return struct.pack("<I", len(payload)) + payload


def decode(payload: bytes) -> Message:
    try:
        message = json.loads(payload)
    except ValueError as error:
        raise ProtocolError(f"not JSON: {error}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("a message is a JSON object with a string 'type'")
    return message


class Channel:
    """The protocol's two ends: requests come in on `reader`, replies go out
    on `writer` (raw descriptors)."""

    def __init__(self, reader: int, writer: int) -> None:
        self.reader = reader
        self.writer = writer
        self.inbox = bytearray()
        self.poller = select.poll()
        self.poller.register(reader, select.POLLIN)

    @classmethod
    def take_standard_streams(cls) -> Channel:
        """Moves the protocol off descriptors 0 and 1, as the arena's own
        worker does: the player's print() (and anything writing to
        descriptor 1) then goes to stderr, and input() reads /dev/null, so
        nothing the player does can corrupt a frame."""
        sys.stdout.flush()
        reader = os.dup(0)  # os.dup's copies are not inherited by children
        writer = os.dup(1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        # A line at a time, as stderr is: print()s and logging stay in the
        # order written in a turn's notes (the arena keeps them beside it).
        if hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(line_buffering=True)
        return cls(reader, writer)

    def send(self, message: Message) -> None:
        view = memoryview(encode(message))
        while view:
            view = view[os.write(self.writer, view) :]

    def receive(self) -> Message | None:
        """The next request, or None when the input ends cleanly."""
        header = self._take(4)
        if header is None:
            return None
        (length,) = struct.unpack("<I", header)
        if not 1 <= length <= MAX_FRAME:
            raise ProtocolError(f"frame length {length} is outside 1..={MAX_FRAME}")
        payload = self._take(length)
        if payload is None:
            raise ProtocolError("the input ended inside a frame")
        return decode(payload)

    def _take(self, n: int) -> bytes | None:
        while len(self.inbox) < n:
            self._wait()
            chunk = os.read(self.reader, 1 << 16)
            if not chunk:
                if self.inbox:
                    raise ProtocolError("the input ended inside a frame")
                return None
            self.inbox += chunk
        taken = bytes(self.inbox[:n])
        del self.inbox[:n]
        return taken

    def _wait(self) -> None:
        """Until the input is readable, asleep in poll(2), which wakes
        faster on a pipe than read(2) does. No spin: the arena stops the
        worker as soon as it has replied (SIGSTOP) and wakes it with the next
        request, so looking for that request meanwhile only burned the core
        the next turn needed (docs/benchmarks/hosting.md, "Python players
        against the course's referee")."""
        self.poller.poll()
