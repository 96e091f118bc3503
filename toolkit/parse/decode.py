"""Bytes to text, or a reason why the bytes are not a text document.

Decoding policy (documented in docs/data-contract.md): UTF-8 (a BOM is dropped); UTF-16/UTF-32 when a
BOM says so; otherwise a declared fallback to cp1252, the encoding of Windows exports, recorded in the
`encoding` column so a reviewer can find those rows. Bytes that fit none of these are rejected as
`not_text_encoding`; NUL bytes or many control characters mean `binary`.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from toolkit.errors import RejectReason

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_FALLBACK = "cp1252"
_SNIFF_BYTES = 8192
_MAX_CONTROL_FRACTION = 0.05
_CONTROL_BYTES = bytes(sorted(set(range(32)) - {9, 10, 11, 12, 13}))


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str


@dataclass(frozen=True, slots=True)
class Undecodable:
    reason: RejectReason
    detail: str


def decode(data: bytes) -> Decoded | Undecodable:
    """Decode one input document; never raises."""
    if not data.strip():
        return Undecodable(RejectReason.EMPTY, "the file holds no text")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return _checked(data.decode(encoding), "utf-8" if encoding == "utf-8-sig" else encoding)
            except UnicodeDecodeError as exc:
                return Undecodable(
                    RejectReason.NOT_TEXT_ENCODING, f"{encoding} BOM but invalid: {exc.reason}"
                )
    head = data[:_SNIFF_BYTES]
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if b"\x00" in head or controls > _MAX_CONTROL_FRACTION * len(head):
        return Undecodable(RejectReason.BINARY, f"{controls} control bytes in the first {len(head)}")
    try:
        return _checked(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return _checked(data.decode(_FALLBACK), _FALLBACK)
    except UnicodeDecodeError as exc:
        return Undecodable(
            RejectReason.NOT_TEXT_ENCODING,
            f"neither UTF-8 nor {_FALLBACK}: byte 0x{data[exc.start]:02x} at offset {exc.start}",
        )


def _checked(text: str, encoding: str) -> Decoded | Undecodable:
    if not text.strip():
        return Undecodable(RejectReason.EMPTY, "the file holds only white space")
    if "\x00" in text:
        return Undecodable(RejectReason.BINARY, "NUL characters in the text")
    return Decoded(text, encoding)
