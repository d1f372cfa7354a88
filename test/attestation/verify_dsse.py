"""Verifies runledger DSSE envelopes with in-toto's own library (securesystemslib 0.26).

securesystemslib 0.26 has SSlibKey.verify_signature but not yet its dsse module, so the
pre-authentication encoding is built here from the DSSE specification (protocol.md):
PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body.

Usage: verify_dsse.py KEYS.json ENVELOPE.json...
Prints one line per envelope, "OK" or "FAIL <reason>"; exits 0 when every envelope verifies.
"""

import base64
import binascii
import json
import sys

from securesystemslib.exceptions import UnverifiedSignatureError, VerificationError
from securesystemslib.signer import Signature, SSlibKey


def pae(payload_type: str, body: bytes) -> bytes:
    type_bytes = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(type_bytes), type_bytes, len(body), body)


def published_keys(path: str) -> dict:
    """Each key of /.well-known/runledger-keys.json as an SSlibKey, by its key_id."""
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    keys = {}
    for entry in document["keys"]:
        public = base64.b64decode(entry["public_key"], validate=True)
        keys[entry["key_id"]] = SSlibKey(
            keyid=entry["key_id"],
            keytype="ed25519",
            scheme="ed25519",
            keyval={"public": public.hex()},
        )
    return keys


def verify(keys: dict, path: str) -> str:
    try:
        with open(path, "rb") as f:
            envelope = json.loads(f.read().decode("utf-8"))
        body = base64.b64decode(envelope["payload"], validate=True)
        message = pae(envelope["payloadType"], body)
        signatures = envelope["signatures"]
    except (ValueError, KeyError, TypeError, binascii.Error) as error:
        return f"FAIL unreadable: {error}"
    for entry in signatures:
        key = keys.get(entry.get("keyid"))
        if key is None:
            continue
        try:
            sig = base64.b64decode(entry["sig"], validate=True).hex()
            key.verify_signature(Signature(keyid=key.keyid, sig=sig), message)
        except (UnverifiedSignatureError, VerificationError, ValueError, binascii.Error) as error:
            return f"FAIL {type(error).__name__}: {error}"
        return "OK"
    return "FAIL no published key has the envelope's keyid"


def main() -> int:
    keys = published_keys(sys.argv[1])
    results = [verify(keys, path) for path in sys.argv[2:]]
    for result in results:
        print(result)
    return 0 if all(r == "OK" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
