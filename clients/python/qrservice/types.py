"""Shapes of the API's answers (a subset: the fields most callers read)."""

from __future__ import annotations

from typing import Any, Optional, TypedDict


class Rule(TypedDict, total=False):
    ruleId: str
    type: str
    priority: int
    condition: str
    conditions: dict[str, Any]
    destination: Optional[str]


class Routing(TypedDict):
    enabled: bool
    rules: list[Rule]


class AppTarget(TypedDict):
    link: Optional[str]  # a universal link / App Link (https) or a custom-scheme deep link
    store_url: Optional[str]
    open_custom_scheme: bool
    redirect_url: str  # where a scan from this OS goes when no routing rule matched (read-only)


class AppLinks(TypedDict):
    ios: Optional[AppTarget]
    android: Optional[AppTarget]


class Utm(TypedDict):
    utm_source: Optional[str]
    utm_medium: Optional[str]
    utm_campaign: Optional[str]
    utm_term: Optional[str]
    utm_content: Optional[str]


class Preview(TypedDict):
    title: Optional[str]
    description: Optional[str]
    image_url: Optional[str]  # https only
class PageLink(TypedDict):
    label: str
    url: str  # http(s)


class Page(TypedDict, total=False):
    """A hosted page (docs/pages.md); which keys it has depends on its kind."""

    kind: str  # business_card, app_download or links
    # business_card
    name: str
    title: str
    organization: str
    phones: list[dict[str, str]]  # {"label"?, "number"}
    emails: list[dict[str, str]]  # {"label"?, "address"}
    address: dict[str, str]  # street, city, region, postal_code, country
    note: str
    # app_download
    app_name: str
    description: str  # also links
    app_store_url: str
    play_store_url: str
    # links (and business_card's links)
    links: list[PageLink]


class Code(TypedDict, total=False):
    id: str
    type: str
    content: Any
    name: Optional[str]
    notes: Optional[str]
    forward_query: bool
    # Scans must give a password first (set with "password" on create or update; never returned).
    password_protected: bool
    # Per-OS app targets used when no routing rule matched; None when the code has none.
    app_links: Optional[AppLinks]
    # UTM parameters merged into the destination at scan time; None when the code has none.
    utm: Optional[Utm]
    # The Open Graph card link-preview crawlers get instead of the redirect; None when the code has none.
    preview: Optional[Preview]
    # The hosted page scans are answered with instead of the redirect; None when the code redirects.
    page: Optional[Page]
    tags: list[str]
    status: str  # active, paused or archived
    state: str  # active, paused, expired or limit_reached (read-only)
    paused_destination: Optional[str]
    expires_at: Optional[str]
    expired_destination: Optional[str]
    max_scans: Optional[int]
    domain: Optional[str]
    scan_url: Optional[str]
    design: dict[str, Any]
    routing: Routing
    # Scans at the service the code was imported from (POST /imports): history, never in analytics totals.
    imported_scans: int
    created_at: str
    updated_at: str


class DomainVerification(TypedDict):
    type: str
    name: str
    value: str


class Domain(TypedDict):
    id: str
    object: str
    hostname: str
    status: str
    verification: DomainVerification
    fallback_url: Optional[str]
    # Served at /.well-known/apple-app-site-association and /.well-known/assetlinks.json once verified.
    apple_app_site_association: Optional[dict[str, Any]]
    assetlinks: Optional[list[dict[str, Any]]]
    verified_at: Optional[str]
    created_at: str


class UtmTemplate(TypedDict):
    id: str
    object: str
    name: str
    utm_source: Optional[str]
    utm_medium: Optional[str]
    utm_campaign: Optional[str]
    utm_term: Optional[str]
    utm_content: Optional[str]
    created_at: str
    updated_at: str


class CodeList(TypedDict):
    object: str
    data: list[Code]
    next_cursor: Optional[str]


class Tag(TypedDict):
    id: str
    object: str
    name: str
    color: Optional[str]
    code_count: int
    created_at: str


class TagList(TypedDict):
    object: str
    data: list[Tag]
    next_cursor: Optional[str]


class PeriodCount(TypedDict):
    period: str
    scans: int
    unique_scans: int


class ValueCount(TypedDict):
    value: Optional[str]
    scans: int


# Functional form: the answer has a key named `from`, a Python keyword.
CodeAnalytics = TypedDict(
    "CodeAnalytics",
    {
        "code_id": str,
        "from": str,
        "to": str,
        "granularity": str,
        "timezone": str,
        "include_bots": bool,
        # The earliest instant raw scans are kept from (SCAN_RAW_RETENTION_DAYS); None: all are.
        "raw_available_since": Optional[str],
        # What the breakdowns count: the range, unless retention cut an edge day (see the docs).
        "breakdowns_from": str,
        "breakdowns_to": str,
        "total_scans": int,
        "unique_scans": int,
        # Scans at the service the code was imported from, reported apart from total_scans.
        "imported_scans": int,
        # Unlock pages shown of a password-protected code (whole UTC days of the range); not scans.
        "locked_views": int,
        "timeseries": list[PeriodCount],
        "breakdowns": dict[str, list[ValueCount]],
    },
)


class Overview(TypedDict):
    raw_available_since: Optional[str]
    breakdowns_from: str
    breakdowns_to: str
    total_scans: int
    unique_scans: int
    total_codes: int
    active_codes: int
    top_codes: list[dict[str, Any]]
    trend: list[PeriodCount]
    previous_period: dict[str, Any]
    breakdowns: dict[str, list[ValueCount]]


class AuditActor(TypedDict):
    kind: str  # api_key, oauth_client, cli or user
    id: str  # key_…, client_…, user_… or cli
    # The caller's address hashed under a salt that changes every UTC day; None for the CLI.
    address_hash: Optional[str]


class AuditEntry(TypedDict):
    id: str
    object: str
    at: str  # when the change was committed
    actor: AuditActor
    action: str  # code.created, member.role_changed, ...
    object_type: str
    object_id: str
    # What changed: an update's `changes` ({field: {old, new}}), a bulk call's `count`; never a secret.
    summary: dict[str, Any]


class AuditEntryList(TypedDict):
    object: str
    data: list[AuditEntry]
    next_cursor: Optional[str]


# -- a person's side (SessionClient) ---------------------------------------------------------


class User(TypedDict):
    id: str
    object: str
    email: str
    display_name: str
    created_at: str
    updated_at: str


class Workspace(TypedDict):
    id: str  # the account's id (acct_…): what Qr-Workspace names
    object: str
    name: str
    role: str  # the signed-in person's: owner, admin, editor or viewer
    created_at: str


class SessionInfo(TypedDict):
    id: str
    object: str
    current: bool
    created_at: str
    last_seen_at: str
    expires_at: str
    user_agent: Optional[str]


class SignedIn(TypedDict):
    """The answer to a sign-in, a setup and a registration: who, their workspaces, the CSRF token."""

    object: str
    user: User
    workspaces: list[Workspace]
    session: SessionInfo
    csrf_token: str


class Member(TypedDict):
    object: str
    user: User
    role: str
    created_at: str  # when they joined the workspace


class Invitation(TypedDict):
    id: str
    object: str
    workspace_id: str
    email: Optional[str]  # who may accept it; None: whoever holds the link
    role: str
    invited_by: str  # user_…
    created_at: str
    expires_at: str


class NewInvitation(Invitation):
    link: str  # shown only in this answer; its token= is what joining takes
    email_sent: bool
