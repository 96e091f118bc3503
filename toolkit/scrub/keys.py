"""Keyed pseudonyms: HMAC-SHA256 under a secret, so equal values get equal pseudonyms everywhere.

The secret comes from `TOOLKIT_SECRET` or a key file. Without one, a random key is made for the run: its
pseudonyms link rows within the release but not across runs, and the report says so. The key itself never
reaches any output.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.errors import UsageError

SECRET_VARIABLE = "TOOLKIT_SECRET"
_MIN_SECRET_BYTES = 16
RANDOM_KEY = "random per run"
"""The key source of a run without a secret: its pseudonyms do not link across runs."""
TOKEN_HEX = 8
PSEUDONYM_HEX = 16


@dataclass(frozen=True)
class Keyring:
    key: bytes = field(repr=False)
    source: str
    """Where the key came from: 'TOOLKIT_SECRET', 'key file', or 'random per run'."""

    @property
    def linkable_across_runs(self) -> bool:
        return self.source != RANDOM_KEY

    def digest(self, kind: str, value: str) -> str:
        """Hex HMAC-SHA256 of `value` within a namespace `kind` (so a name and a repository never collide)."""
        return hmac.new(self.key, f"{kind}\x1f{value}".encode(), hashlib.sha256).hexdigest()

    def token(self, entity: str, identity: str) -> str:
        """The readable replacement of a value found in free text: '<PERSON_1a2b3c4d>'."""
        return f"<{entity}_{self.digest(entity, identity)[:TOKEN_HEX]}>"

    def pseudonym(self, kind: str, value: str) -> str:
        """The replacement of a whole column value (an id, a repository)."""
        return self.digest(kind, value)[:PSEUDONYM_HEX]


MISSING_KEY = (
    f"no key: set {SECRET_VARIABLE} or pass --key-file FILE (the rules or --require-key require one; "
    "without a key, pseudonyms would use a random key and link to no other release)"
)


def keyring(key_file: Path | None = None, required: bool = False) -> Keyring:
    """The key from `key_file`, else from TOOLKIT_SECRET, else a random one for this run (a `UsageError`
    instead when `required`). Both sources follow one policy: white space around the secret (a final
    newline) is not part of it, and a secret that is empty or white space only, or shorter than 16 bytes,
    is refused."""
    if key_file is not None:
        try:
            if not key_file.exists():
                raise UsageError(f"{key_file}: no such key file")
            if not key_file.is_file():  # a device or a FIFO ('/dev/zero') would be read without end
                raise UsageError(f"{key_file}: the key file must be a regular file, not a folder or a device")
            with key_file.open("rb") as handle:
                key = handle.read(_MAX_KEY_FILE_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"{key_file}: cannot read the key file ({exc.strerror or exc})") from None
        if len(key) > _MAX_KEY_FILE_BYTES:
            raise UsageError(
                f"{key_file}: a key file holds one secret, not {_MAX_KEY_FILE_BYTES} bytes or more"
            )
        return Keyring(_checked(key, str(key_file)), "key file")
    secret = os.environ.get(SECRET_VARIABLE)
    if secret is not None:
        return Keyring(_checked(os.fsencode(secret), SECRET_VARIABLE), SECRET_VARIABLE)
    if required:
        raise UsageError(MISSING_KEY)
    return Keyring(secrets.token_bytes(32), RANDOM_KEY)


_MAX_KEY_FILE_BYTES = 4096


def from_secret(secret: bytes, source: str) -> Keyring:
    """A keyring from a secret given in code (`source` says where it came from, for the report)."""
    return Keyring(_checked(secret, source), source)


def _checked(key: bytes, where: str) -> bytes:
    key = key.strip()
    if not key:
        raise UsageError(f"{where}: the secret is empty or only white space")
    if len(key) < _MIN_SECRET_BYTES:
        raise UsageError(f"{where}: the secret must be at least {_MIN_SECRET_BYTES} bytes long")
    return key
