"""HTTP calls and error mapping. Answers are returned as the API sends them (dicts and lists);
the TypedDicts in types.py describe their shape for editors and type checkers."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from typing import Any, Iterator, Mapping, Optional, cast

from .types import AuditEntry, AuditEntryList, Code, CodeAnalytics, CodeList, Domain, Overview, Routing, Rule, Tag, TagList, UtmTemplate

API_VERSION = "v1"


class ApiError(Exception):
    """A 4xx/5xx answer. `problem` is the RFC 9457 problem+json body the service sent."""

    def __init__(self, status: int, problem: Mapping[str, Any]):
        self.status = status
        self.problem = dict(problem)
        self.errors: list[dict[str, str]] = list(problem.get("errors", []))
        super().__init__(f"{status} {problem.get('title', '')}: {problem.get('detail', '')}".strip())


class Client:
    """One API key against one service. Every method is one HTTP request (list helpers page)."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    # -- transport ---------------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None, query: Optional[Mapping[str, Any]] = None,
                headers: Optional[Mapping[str, str]] = None) -> Any:
        """Sends one request under /v1 and returns the decoded JSON (None for 204)."""
        raw = self.request_raw(method, path, body, query, {"Accept": "application/json", **(headers or {})})
        return json.loads(raw) if raw else None

    def request_raw(self, method: str, path: str, body: Any = None, query: Optional[Mapping[str, Any]] = None,
                    headers: Optional[Mapping[str, str]] = None) -> bytes:
        """Sends one request under /v1 and returns the answer's body as it came (a CSV export, say)."""
        url = f"{self.base_url}/{API_VERSION}{path}"
        # A list is a repeated parameter (`tag=a&tag=b`).
        params = {k: [_query_value(x) for x in v] if isinstance(v, (list, tuple)) else _query_value(v)
                  for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params, doseq=True)
        _, raw = exchange(method, url, body, {**self._credential_headers(), **(headers or {})}, self.timeout)
        return raw

    def _credential_headers(self) -> dict[str, str]:
        """What says who calls: the key, as a bearer token (a person's session sends its cookie instead)."""
        return {"Authorization": f"Bearer {self.api_key}"}

    # -- codes -------------------------------------------------------------------------------

    def create_code(self, code: Mapping[str, Any], idempotency_key: Optional[str] = None) -> Code:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return cast(Code, self.request("POST", "/codes", code, headers=headers))

    def get_code(self, code_id: str) -> Code:
        return cast(Code, self.request("GET", f"/codes/{_segment(code_id)}"))

    def update_code(self, code_id: str, changes: Mapping[str, Any]) -> Code:
        return cast(Code, self.request("PATCH", f"/codes/{_segment(code_id)}", changes))

    def delete_code(self, code_id: str) -> None:
        self.request("DELETE", f"/codes/{_segment(code_id)}")

    def list_codes(self, **query: Any) -> CodeList:
        """One page: `limit`, `cursor`, `type`, `q`, `tag` (a name, or a list: any of them), `created_after`, `created_before`, `sort`."""
        return cast(CodeList, self.request("GET", "/codes", query=query))

    def iter_codes(self, **query: Any) -> Iterator[Code]:
        """Every code, following next_cursor page by page."""
        return _every(self.list_codes, query)

    def bulk_create(self, codes: list[Mapping[str, Any]], idempotency_key: Optional[str] = None) -> dict[str, Any]:
        """Up to 10,000 codes in one atomic call."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return cast(dict, self.request("POST", "/codes/bulk", {"codes": codes}, headers=headers))

    def import_links(self, format: str, content: str, dry_run: bool = False, **options: Any) -> dict[str, Any]:
        """A Bitly, Shlink, YOURLS or Kutt export made into codes (format: bitly_csv, shlink_csv, shlink_json,
        yourls_csv, kutt_json); the report lists every row. options: domain (a hostname, or None for the
        service's own)."""
        body = {"format": format, "content": content, "dry_run": dry_run, **options}
        return cast(dict, self.request("POST", "/imports", body))

    # -- tags --------------------------------------------------------------------------------

    def create_tag(self, name: str, color: Optional[str] = None) -> Tag:
        body: dict[str, Any] = {"name": name}
        if color is not None:
            body["color"] = color
        return cast(Tag, self.request("POST", "/tags", body))

    def get_tag(self, tag_id: str) -> Tag:
        return cast(Tag, self.request("GET", f"/tags/{_segment(tag_id)}"))

    def update_tag(self, tag_id: str, changes: Mapping[str, Any]) -> Tag:
        """`name` renames (its codes follow), `color` recolours (None removes it)."""
        return cast(Tag, self.request("PATCH", f"/tags/{_segment(tag_id)}", changes))

    def delete_tag(self, tag_id: str) -> None:
        self.request("DELETE", f"/tags/{_segment(tag_id)}")

    def list_tags(self, **query: Any) -> TagList:
        """One page in name order, each tag with its `code_count`: `limit`, `cursor`."""
        return cast(TagList, self.request("GET", "/tags", query=query))

    def iter_tags(self, **query: Any) -> Iterator[Tag]:
        """Every tag of the account, following next_cursor page by page."""
        return _every(self.list_tags, query)

    # -- domains -----------------------------------------------------------------------------

    def add_domain(self, hostname: str, fallback_url: Optional[str] = None) -> Domain:
        """Registers a hostname, pending until verify_domain finds its TXT record (`verification`)."""
        body: dict[str, Any] = {"hostname": hostname}
        if fallback_url is not None:
            body["fallback_url"] = fallback_url
        return cast(Domain, self.request("POST", "/domains", body))

    def list_domains(self) -> list[Domain]:
        return cast(list, self.request("GET", "/domains")["data"])

    def get_domain(self, domain_id: str) -> Domain:
        return cast(Domain, self.request("GET", f"/domains/{_segment(domain_id)}"))

    def update_domain(self, domain_id: str, fallback_url: Optional[str]) -> Domain:
        """Sets the fallback URL of the root and unknown slugs; None removes it."""
        return cast(Domain, self.request("PATCH", f"/domains/{_segment(domain_id)}", {"fallback_url": fallback_url}))

    def verify_domain(self, domain_id: str) -> Domain:
        """Looks the TXT record up now; an ApiError (422) says what was expected and found."""
        return cast(Domain, self.request("POST", f"/domains/{_segment(domain_id)}/verify"))

    def remove_domain(self, domain_id: str) -> None:
        self.request("DELETE", f"/domains/{_segment(domain_id)}")

    # -- UTM templates -----------------------------------------------------------------------

    def create_utm_template(self, name: str, **fields: str) -> UtmTemplate:
        """Saves UTM fields (utm_source=..., at least one) a new code can start from (utm_template_id)."""
        return cast(UtmTemplate, self.request("POST", "/utm-templates", {"name": name, **fields}))

    def list_utm_templates(self) -> list[UtmTemplate]:
        return cast(list, self.request("GET", "/utm-templates")["data"])

    def get_utm_template(self, template_id: str) -> UtmTemplate:
        return cast(UtmTemplate, self.request("GET", f"/utm-templates/{_segment(template_id)}"))

    def update_utm_template(self, template_id: str, changes: Mapping[str, Any]) -> UtmTemplate:
        """A new name or fields; None removes a field. Codes made from the template keep theirs."""
        return cast(UtmTemplate, self.request("PATCH", f"/utm-templates/{_segment(template_id)}", changes))

    def delete_utm_template(self, template_id: str) -> None:
        self.request("DELETE", f"/utm-templates/{_segment(template_id)}")

    # -- routing -----------------------------------------------------------------------------

    def get_routing(self, code_id: str) -> Routing:
        return cast(Routing, self.request("GET", f"/codes/{_segment(code_id)}/routing"))

    def replace_routing(self, code_id: str, enabled: bool, rules: list[Mapping[str, Any]]) -> Routing:
        return cast(Routing, self.request("PUT", f"/codes/{_segment(code_id)}/routing", {"enabled": enabled, "rules": rules}))

    def add_rule(self, code_id: str, rule: Mapping[str, Any]) -> Rule:
        return cast(Rule, self.request("POST", f"/codes/{_segment(code_id)}/routing/rules", rule))

    def delete_rule(self, code_id: str, rule_id: str) -> None:
        self.request("DELETE", f"/codes/{_segment(code_id)}/routing/rules/{_segment(rule_id)}")

    # -- analytics ---------------------------------------------------------------------------

    def code_scans(self, code_id: str, **query: Any) -> CodeAnalytics:
        """`from`, `to`, `granularity`, `timezone`, `include_bots`, `top`; pass `from_` for `from`."""
        return cast(CodeAnalytics, self.request("GET", f"/codes/{_segment(code_id)}/scans", query=_renamed(query)))

    def overview(self, **query: Any) -> Overview:
        """The account's totals, trend, top codes and breakdowns; `tag` restricts them to one tag's codes."""
        return cast(Overview, self.request("GET", "/analytics/overview", query=_renamed(query)))

    def iter_raw_scans(self, code_id: str, **query: Any) -> Iterator[dict[str, Any]]:
        """Every scan record of a code, oldest first, page by page."""
        cursor: Optional[str] = None
        while True:
            page = self.request("GET", f"/codes/{_segment(code_id)}/scans/raw", query={**_renamed(query), "cursor": cursor})
            yield from page["data"]
            cursor = page["next_cursor"]
            if not cursor:
                return

    # -- audit log ---------------------------------------------------------------------------

    def list_audit_log(self, **filters: Any) -> AuditEntryList:
        """One page, newest first: `action`, `object_type`, `object_id`, `actor_kind`, `actor_id`, `since`
        (inclusive) and `until` (exclusive) as ISO 8601 instants, `limit`, `cursor`. Needs audit:read."""
        return cast(AuditEntryList, self.request("GET", "/audit-log", query=filters))

    def iter_audit_log(self, **filters: Any) -> Iterator[AuditEntry]:
        """Every entry matching the filters, newest first, following next_cursor page by page."""
        return _every(self.list_audit_log, filters)

    def export_audit_log(self, **filters: Any) -> str:
        """Every entry matching the filters as one CSV document (the same filters; no paging). Text a
        spreadsheet would run as a formula comes with a leading apostrophe."""
        raw = self.request_raw("GET", "/audit-log", query={**filters, "format": "csv"}, headers={"Accept": "text/csv"})
        return raw.decode("utf-8")


def exchange(method: str, url: str, body: Any, headers: Mapping[str, str], timeout: float) -> tuple[Message, bytes]:
    """One HTTP request: the answer's headers and body, or an ApiError carrying its problem."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in headers.items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.headers, response.read()
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            problem = json.loads(raw) if raw else {}
        except ValueError:
            problem = {"title": error.reason, "detail": raw[:200].decode("utf-8", "replace")}
        raise ApiError(error.code, problem) from None


def _every(list_page: Any, query: Mapping[str, Any]) -> Iterator[Any]:
    """Every item of a paginated list, following next_cursor page by page."""
    cursor: Optional[str] = None
    while True:
        page = list_page(**query, cursor=cursor)
        yield from page["data"]
        cursor = page["next_cursor"]
        if not cursor:
            return


def _segment(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _renamed(query: Mapping[str, Any]) -> dict[str, Any]:
    """`from` is a Python keyword: accept `from_` and send `from`."""
    return {("from" if k == "from_" else k): v for k, v in query.items()}
