"""A small, typed client for the QR service REST API, on the Python standard library only.

    from qrservice import Client
    qr = Client("http://localhost:3000", api_key="qrk_...")
    code = qr.create_code({"content": "https://example.com", "design": {"style": "branded"}})
    print(code["scan_url"], qr.code_scans(code["id"])["total_scans"])
"""

from .client import ApiError, Client
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["ApiError", "Client", "WebhookVerificationError", "verify_webhook"]
