"""Verifies webhook signatures (Standard Webhooks: webhook-id, webhook-timestamp,
webhook-signature = space-separated "v1,<base64 HMAC-SHA256 of id.timestamp.body>")."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional

SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    pass


def verify_webhook(secret: str, body: bytes, headers: Mapping[str, str], now: Optional[float] = None) -> dict[str, Any]:
    """Returns the event ({type, timestamp, data}) when a signature matches and the timestamp is
    within five minutes; raises WebhookVerificationError otherwise. Pass the raw body bytes."""
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        msg_id = lower["webhook-id"]
        timestamp = lower["webhook-timestamp"]
        signatures = lower["webhook-signature"]
    except KeyError as missing:
        raise WebhookVerificationError(f"missing header {missing}") from None
    if not timestamp.isdigit() or abs((now if now is not None else time.time()) - int(timestamp)) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("timestamp too old or too new")
    key = base64.b64decode(secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret)
    expected = base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return json.loads(body)
    raise WebhookVerificationError("no matching signature")
