"""A person signed in, for the routes that refuse API keys (their profile, workspaces, members and
invitations). Sent the way the dashboard sends it (dashboard/src/session.ts): the session cookie
`qr_session`, the session's CSRF token in X-CSRF-Token and the workspace in Qr-Workspace, and never
an Authorization header, which would make the service ignore the cookie."""

from __future__ import annotations

import json
from email.message import Message
from typing import Any, Iterator, Mapping, Optional, cast

from .client import API_VERSION, ApiError, Client, _every, _segment, exchange
from .types import Invitation, Member, NewInvitation, SignedIn, User, Workspace

SESSION_COOKIE = "qr_session"
SECOND_FACTOR_REQUIRED = "/problems/second-factor-required"


class SecondFactorRequired(ApiError):
    """The password was right, but the person has a second factor on: no session yet. Pass a code of
    their authenticator app (or a recovery code) to SessionClient.complete_sign_in with `challenge`
    (it lasts five minutes), or sign in again with `totp=`."""

    def __init__(self, status: int, problem: Mapping[str, Any]):
        super().__init__(status, problem)
        self.challenge: str = problem["challenge"]
        self.challenge_expires_at: Optional[str] = problem.get("challenge_expires_at")


class SessionClient(Client):
    """A person's session. Besides the routes below, everything a Client does, in the workspace
    `workspace` names (Qr-Workspace) with the scopes of the person's role there."""

    def __init__(self, base_url: str, session_token: str, signed_in: SignedIn, workspace: Optional[str] = None,
                 timeout: float = 30.0):
        # The person's credential takes the key's place: no super().__init__, which wants a key.
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session_token = session_token
        self.csrf_token = signed_in["csrf_token"]
        self.user: User = signed_in["user"]
        self.workspaces: list[Workspace] = signed_in["workspaces"]
        # Like the dashboard: the workspace asked for, else the person's first.
        self.workspace: Optional[str] = workspace or (self.workspaces[0]["id"] if self.workspaces else None)

    def _credential_headers(self) -> dict[str, str]:
        headers = {"Cookie": f"{SESSION_COOKIE}={self.session_token}", "X-CSRF-Token": self.csrf_token}
        if self.workspace:
            headers["Qr-Workspace"] = self.workspace
        return headers

    # -- starting a session ------------------------------------------------------------------

    @classmethod
    def sign_in(cls, base_url: str, email: str, password: str, workspace: Optional[str] = None,
                totp: Optional[str] = None, timeout: float = 30.0) -> SessionClient:
        """Signs in with email and password (POST /v1/sessions). With the second factor on, `totp` (a
        current code of the authenticator app, or a recovery code) completes it; without one that is
        SecondFactorRequired."""
        try:
            return cls._start(base_url, "/sessions", {"email": email, "password": password}, workspace, timeout)
        except SecondFactorRequired as required:
            if totp is None:
                raise
            return cls.complete_sign_in(base_url, required.challenge, totp, workspace, timeout)

    @classmethod
    def complete_sign_in(cls, base_url: str, challenge: str, code: str, workspace: Optional[str] = None,
                         timeout: float = 30.0) -> SessionClient:
        """The second step of a sign-in: SecondFactorRequired's `challenge` with a code (each works once)."""
        return cls._start(base_url, "/sessions/second-factor", {"challenge": challenge, "code": code}, workspace, timeout)

    @classmethod
    def set_up(cls, base_url: str, token: str, email: str, display_name: str, password: str,
               workspace_name: Optional[str] = None, timeout: float = 30.0) -> SessionClient:
        """Makes the first owner with a setup token (the token= of `cli users create-owner`'s link) and
        signs them in."""
        body = {"token": token, "email": email, "display_name": display_name, "password": password}
        if workspace_name is not None:
            body["workspace_name"] = workspace_name
        return cls._start(base_url, "/setup", body, None, timeout)

    @classmethod
    def join(cls, base_url: str, invitation_token: str, display_name: str, password: str,
             email: Optional[str] = None, timeout: float = 30.0) -> SessionClient:
        """Registers a new person with an invitation (the token= of its link), who joins its workspace
        with its role, and signs them in there. `email` only when the invitation names none."""
        body = {"token": invitation_token, "display_name": display_name, "password": password}
        if email is not None:
            body["email"] = email
        # A new person's one workspace is the invitation's: the session works there.
        return cls._start(base_url, "/invitations/register", body, None, timeout)

    @classmethod
    def _start(cls, base_url: str, path: str, body: Mapping[str, Any], workspace: Optional[str],
               timeout: float) -> SessionClient:
        """POSTs a step that starts a session and keeps the session its answer's cookie carries."""
        url = f"{base_url.rstrip('/')}/{API_VERSION}{path}"
        try:
            headers, raw = exchange("POST", url, body, {"Accept": "application/json"}, timeout)
        except ApiError as error:
            if error.problem.get("type") == SECOND_FACTOR_REQUIRED and "challenge" in error.problem:
                raise SecondFactorRequired(error.status, error.problem) from None
            raise
        return cls(base_url, _session_cookie(headers), cast(SignedIn, json.loads(raw)), workspace, timeout)

    # -- the person --------------------------------------------------------------------------

    def me(self) -> User:
        return cast(User, self.request("GET", "/users/me"))

    def sign_out(self) -> None:
        """Ends this session on the server; the client is of no further use."""
        self.request("DELETE", "/session")

    def use_workspace(self, workspace_id: str) -> None:
        """Works in another of the person's workspaces from the next request on."""
        self.workspace = workspace_id

    def list_workspaces(self) -> list[Workspace]:
        """Every workspace of the person, each with their role in it."""
        return list(self._pages("/workspaces"))

    # -- members and invitations (owners and admins change them) ---------------------------------

    def list_members(self, workspace_id: str) -> list[Member]:
        return list(self._pages(f"/workspaces/{_segment(workspace_id)}/members"))

    def change_member_role(self, workspace_id: str, user_id: str, role: str) -> Member:
        """Owners change anyone's; admins those of admins, editors and viewers. The last owner stays (409)."""
        path = f"/workspaces/{_segment(workspace_id)}/members/{_segment(user_id)}"
        return cast(Member, self.request("PATCH", path, {"role": role}))

    def remove_member(self, workspace_id: str, user_id: str, keep_keys: bool = False) -> None:
        """Removes a member (or, with one's own id, leaves); the API keys they made in the workspace
        are revoked with the membership unless keep_keys."""
        path = f"/workspaces/{_segment(workspace_id)}/members/{_segment(user_id)}"
        self.request("DELETE", path, query={"keep_keys": keep_keys} if keep_keys else None)

    def invite(self, workspace_id: str, role: str, email: Optional[str] = None) -> NewInvitation:
        """An invitation with its link (shown only now); with `email` only that person may accept it."""
        body: dict[str, Any] = {"role": role}
        if email is not None:
            body["email"] = email
        return cast(NewInvitation, self.request("POST", f"/workspaces/{_segment(workspace_id)}/invitations", body))

    def list_invitations(self, workspace_id: str) -> list[Invitation]:
        """The pending ones, newest first."""
        return cast(list, self.request("GET", f"/workspaces/{_segment(workspace_id)}/invitations")["data"])

    def revoke_invitation(self, workspace_id: str, invitation_id: str) -> None:
        self.request("DELETE", f"/workspaces/{_segment(workspace_id)}/invitations/{_segment(invitation_id)}")

    def _pages(self, path: str) -> Iterator[Any]:
        """Every item of a paginated list of the person's, following next_cursor."""
        return _every(lambda **query: self.request("GET", path, query=query), {})


def _session_cookie(headers: Message) -> str:
    """The session token out of the answer's Set-Cookie headers."""
    for header in headers.get_all("Set-Cookie") or []:
        name, _, value = header.split(";", 1)[0].strip().partition("=")
        if name == SESSION_COOKIE and value:
            return value
    # Not an ApiError: the service said yes, but not in a way a session can be kept from.
    raise RuntimeError(f"The sign-in succeeded without setting the {SESSION_COOKIE} cookie.")
