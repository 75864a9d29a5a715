"""Keys and forged tokens for the `oauth` stage, with PyJWT and cryptography (run by the Python
SDK's venv, which has both; the stage itself uses the standard library only).

usage: python forge.py keys NAME...   prints {"NAME": private RSA JWK (kid NAME, RS256), ...}
       python forge.py tokens         reads {"keys": {NAME: private JWK}, "tokens": [SPEC...]}
                                      on stdin, prints [token, ...] in the same order
SPEC: {"key": NAME, "alg": "RS256" | "none" | "HS256-public-pem", "header": {...}, "claims": {...}}
- RS256: signed with the key NAME; `header` (kid, typ...) is the JOSE header beside `alg`.
- none: `alg: none` and an empty signature (RFC 7519 §6), `header` as given.
- HS256-public-pem: HMAC-SHA256 keyed with the PEM bytes of NAME's *public* key (the classic
  algorithm-confusion attack on a verifier that takes the algorithm from the token).
"""

import base64
import hashlib
import hmac
import json
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def segment(value: dict) -> str:
    return b64(json.dumps(value, separators=(",", ":")).encode())


def new_key(name: str) -> dict:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key))
    # PyJWT adds key_ops ["sign"]; the AS would publish that with the public key, where a
    # verifier may read it as "not for verifying".
    jwk.pop("key_ops", None)
    return {**jwk, "kid": name, "alg": "RS256", "use": "sig"}


def token(keys: dict, spec: dict) -> str:
    alg = spec["alg"]
    header, claims = spec.get("header", {}), spec["claims"]
    key = jwt.algorithms.RSAAlgorithm.from_jwk(json.dumps(keys[spec["key"]])) if spec.get("key") else None
    if alg == "RS256":
        # PyJWT puts `typ` first unless told; the spec's header is taken as it is.
        return jwt.encode(claims, key, algorithm="RS256", headers=header, sort_headers=False)
    signing_input = f"{segment({'alg': 'none' if alg == 'none' else 'HS256', **header})}.{segment(claims)}"
    if alg == "none":
        return signing_input + "."
    if alg == "HS256-public-pem":
        pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        return signing_input + "." + b64(hmac.new(pem, signing_input.encode(), hashlib.sha256).digest())
    raise ValueError(f"no algorithm {alg!r}")


def main() -> None:
    if sys.argv[1] == "keys":
        print(json.dumps({name: new_key(name) for name in sys.argv[2:]}))
    elif sys.argv[1] == "tokens":
        given = json.load(sys.stdin)
        print(json.dumps([token(given["keys"], spec) for spec in given["tokens"]]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
