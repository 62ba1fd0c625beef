"""A small, typed client for the QR service REST API, on the Python standard library only.

    from qrservice import Client
    qr = Client("http://localhost:3000", api_key="qrk_...")
    code = qr.create_code({"content": "https://example.com", "design": {"style": "branded"}})
    print(code["scan_url"], qr.code_scans(code["id"])["total_scans"])

A person's session (members, invitations, their workspaces) is a SessionClient:

    from qrservice import SessionClient
    me = SessionClient.sign_in("http://localhost:3000", "ada@example.com", "...")
    me.invite(me.workspace, "editor")["link"]
"""

from .client import ApiError, Client
from .session import SecondFactorRequired, SessionClient
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["ApiError", "Client", "SecondFactorRequired", "SessionClient", "WebhookVerificationError", "verify_webhook"]
