"""Signature verification on its own, with signatures computed here."""

from __future__ import annotations

import base64
import hashlib
import hmac
import unittest

from qrservice import WebhookVerificationError, verify_webhook

SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()
BODY = b'{"type":"webhook.test","timestamp":"2026-11-22T00:00:00.000Z","data":{}}'


def signed(body: bytes, timestamp: int, secret: str = SECRET) -> dict[str, str]:
    key = base64.b64decode(secret[len("whsec_"):])
    signature = base64.b64encode(hmac.new(key, f"evt_1.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
    return {"webhook-id": "evt_1", "webhook-timestamp": str(timestamp), "webhook-signature": f"v1,{signature}"}


class VerifyTest(unittest.TestCase):
    def test_accepts_a_valid_signature(self):
        self.assertEqual(verify_webhook(SECRET, BODY, signed(BODY, 1_000), now=1_010)["type"], "webhook.test")

    def test_accepts_either_signature_during_a_rotation(self):
        other = "whsec_" + base64.b64encode(b"o" * 32).decode()
        headers = signed(BODY, 1_000, other)
        headers["webhook-signature"] = f"{signed(BODY, 1_000)['webhook-signature']} {headers['webhook-signature']}"
        self.assertEqual(verify_webhook(other, BODY, headers, now=1_000)["type"], "webhook.test")

    def test_rejects_a_changed_body(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY.replace(b"test", b"tost"), signed(BODY, 1_000), now=1_000)

    def test_rejects_an_old_timestamp(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY, signed(BODY, 1_000), now=1_000 + 301)

    def test_rejects_missing_headers(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY, {"webhook-id": "evt_1"}, now=1_000)
