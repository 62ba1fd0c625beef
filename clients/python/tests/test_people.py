"""A person's session against a running service. Nobody can sign in on a fresh service, so the
first owner is made the way an operator makes one: `cli users create-owner --email <e>` prints a
setup link, and its token (QR_SETUP_TOKEN, for QR_SETUP_EMAIL; the CI script makes both) completes
the setup through the API. Others join with the owner's invitations. Without them these tests are
skipped (which CI counts as a failure)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import struct
import time
import unittest
import urllib.parse

from qrservice import ApiError, Client, SecondFactorRequired, SessionClient

BASE_URL = os.environ.get("QR_BASE_URL")
API_KEY = os.environ.get("QR_API_KEY")
SETUP_TOKEN = os.environ.get("QR_SETUP_TOKEN")
SETUP_EMAIL = os.environ.get("QR_SETUP_EMAIL")
PASSWORD = "py client tangerine orbit canvas 42"


def totp(secret: str, at: float) -> str:
    """The 6-digit code an authenticator app shows at `at` (RFC 6238: SHA-1, 30 s steps)."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8), casefold=True)
    digest = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return str((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000).zfill(6)


def token_of(link: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["token"][0]


@unittest.skipUnless(BASE_URL and API_KEY and SETUP_TOKEN and SETUP_EMAIL,
                     "set QR_BASE_URL, QR_API_KEY, QR_SETUP_TOKEN and QR_SETUP_EMAIL to run against a service")
class PeopleTest(unittest.TestCase):
    owner: SessionClient

    @classmethod
    def setUpClass(cls):
        # The setup token works once: the owner is made here, for every test of the class.
        cls.owner = SessionClient.set_up(BASE_URL, SETUP_TOKEN, SETUP_EMAIL, "Py Owner", PASSWORD, workspace_name="Py people")

    def join(self, role: str, name: str) -> SessionClient:
        """A new person, invited by the owner with `role` and registered with the link's token."""
        invitation = self.owner.invite(self.owner.workspace, role)
        email = f"{name.lower().replace(' ', '-')}-{time.time_ns()}@python-client.test"
        return SessionClient.join(BASE_URL, token_of(invitation["link"]), name, PASSWORD, email=email)

    def test_sign_in_me_and_sign_out(self):
        person = SessionClient.sign_in(BASE_URL, SETUP_EMAIL, PASSWORD)
        self.assertEqual(person.me()["email"], SETUP_EMAIL)
        self.assertEqual([(w["id"], w["name"], w["role"]) for w in person.list_workspaces()],
                         [(self.owner.workspace, "Py people", "owner")])
        person.sign_out()
        with self.assertRaises(ApiError) as ended:
            person.me()
        self.assertEqual(ended.exception.status, 401)
        with self.assertRaises(ApiError) as wrong:
            SessionClient.sign_in(BASE_URL, SETUP_EMAIL, "not the password")
        self.assertNotIsInstance(wrong.exception, SecondFactorRequired)
        self.assertEqual(wrong.exception.status, 401)
        # A key acts for a workspace, never for a person.
        with self.assertRaises(ApiError) as refused:
            Client(BASE_URL, API_KEY).request("GET", "/users/me")
        self.assertEqual(refused.exception.status, 403)

    def test_members_and_invitations(self):
        workspace = self.owner.workspace
        named = self.owner.invite(workspace, "viewer", email="named@python-client.test")
        self.assertEqual((named["email"], named["role"], named["email_sent"]), ("named@python-client.test", "viewer", False))
        self.assertIn(named["id"], [i["id"] for i in self.owner.list_invitations(workspace)])
        self.owner.revoke_invitation(workspace, named["id"])
        self.assertNotIn(named["id"], [i["id"] for i in self.owner.list_invitations(workspace)])

        grace = self.join("editor", "Grace Py")
        self.assertEqual([(w["id"], w["role"]) for w in grace.list_workspaces()], [(workspace, "editor")])
        roles = {m["user"]["id"]: m["role"] for m in self.owner.list_members(workspace)}
        self.assertEqual((roles[self.owner.user["id"]], roles[grace.user["id"]]), ("owner", "editor"))
        with self.assertRaises(ApiError) as not_hers:
            grace.invite(workspace, "viewer")
        self.assertEqual(not_hers.exception.status, 403)

        self.assertEqual(self.owner.change_member_role(workspace, grace.user["id"], "viewer")["role"], "viewer")
        changed = [e for e in self.owner.iter_audit_log(action="member.role_changed") if e["actor"]["id"] == self.owner.user["id"]]
        self.assertEqual([e["actor"]["kind"] for e in changed], ["user"])
        # A session works in its workspace as a key does in its own, and neither sees the other's.
        code = self.owner.create_code({"content": "https://example.com/py/people"})
        self.assertEqual(grace.get_code(code["id"])["content"], "https://example.com/py/people")
        key = Client(BASE_URL, API_KEY)
        with self.assertRaises(ApiError) as elsewhere:
            key.get_code(code["id"])
        self.assertEqual(elsewhere.exception.status, 404)
        self.assertNotIn(changed[0]["id"], [e["id"] for e in key.iter_audit_log(action="member.role_changed")])

        self.owner.remove_member(workspace, grace.user["id"])
        self.assertEqual(grace.list_workspaces(), [])
        with self.assertRaises(ApiError) as gone:
            grace.list_members(workspace)
        self.assertEqual(gone.exception.status, 404)
        with self.assertRaises(ApiError) as last_owner:
            self.owner.change_member_role(workspace, self.owner.user["id"], "admin")
        self.assertEqual(last_owner.exception.status, 409)

    def test_second_factor(self):
        ada = self.join("editor", "Ada Py")
        secret = ada.request("POST", "/users/me/second-factor")["secret"]
        now = time.time()
        recovery = ada.request("POST", "/users/me/second-factor/confirm", {"code": totp(secret, now)})["codes"]
        with self.assertRaises(SecondFactorRequired) as challenged:
            SessionClient.sign_in(BASE_URL, ada.user["email"], PASSWORD)
        self.assertEqual(challenged.exception.status, 401)
        with self.assertRaises(ApiError) as wrong:
            SessionClient.complete_sign_in(BASE_URL, challenged.exception.challenge, "not a code")
        self.assertEqual(wrong.exception.status, 401)
        # The confirmation used this time step's code; the next step's is accepted once.
        again = SessionClient.complete_sign_in(BASE_URL, challenged.exception.challenge, totp(secret, now + 30))
        self.assertEqual(again.me()["id"], ada.user["id"])
        with_recovery = SessionClient.sign_in(BASE_URL, ada.user["email"], PASSWORD, totp=recovery[0])
        self.assertEqual(with_recovery.workspace, self.owner.workspace)
