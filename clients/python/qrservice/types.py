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


class Code(TypedDict, total=False):
    id: str
    type: str
    content: Any
    name: Optional[str]
    notes: Optional[str]
    forward_query: bool
    # Scans must give a password first (set with "password" on create or update; never returned).
    password_protected: bool
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
    verified_at: Optional[str]
    created_at: str


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
