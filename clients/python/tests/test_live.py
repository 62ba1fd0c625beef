"""The client against a running service: QR_BASE_URL and QR_API_KEY name it (the CI script
starts one on SQLite with ALLOW_PRIVATE_NETWORK_TARGETS=true so the webhook test's loopback
receiver is reachable). Without them these tests are skipped."""

from __future__ import annotations

import http.server
import os
import threading
import time
import unittest
import urllib.error
import urllib.request

from qrservice import ApiError, Client, verify_webhook

BASE_URL = os.environ.get("QR_BASE_URL")
API_KEY = os.environ.get("QR_API_KEY")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def scan(url: str) -> int:
    """GETs a scan URL without following the redirect; returns the status."""
    opener = urllib.request.build_opener(NoRedirect)
    # A browser's User-Agent: urllib's own is on the bot list, and bots are not counted by default.
    request = urllib.request.Request(url, headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"})
    try:
        return opener.open(request).status
    except urllib.error.HTTPError as answer:
        return answer.code


def location(url: str, user_agent: str) -> str:
    """Where a scan URL redirects a visitor with this User-Agent (the redirect is not followed)."""
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(urllib.request.Request(url, headers={"User-Agent": user_agent}))
    except urllib.error.HTTPError as answer:
        return answer.headers["Location"]
    raise AssertionError("no redirect")


def eventually(check, timeout: float = 10.0):
    """Polls check() until it returns something truthy (scans and webhooks are asynchronous)."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.1)


@unittest.skipUnless(BASE_URL and API_KEY, "set QR_BASE_URL and QR_API_KEY to run against a service")
class LiveTest(unittest.TestCase):
    def setUp(self):
        self.qr = Client(BASE_URL, API_KEY)

    def test_codes_crud_and_paging(self):
        created = [self.qr.create_code({"content": f"https://example.com/py/{i}"}) for i in range(3)]
        self.assertTrue(created[0]["id"].startswith("qr_"))
        self.assertEqual(self.qr.get_code(created[0]["id"])["content"], "https://example.com/py/0")
        updated = self.qr.update_code(created[1]["id"], {"content": "https://example.com/py/changed"})
        self.assertEqual(updated["content"], "https://example.com/py/changed")
        ids = [c["id"] for c in self.qr.iter_codes(limit=2, q="example.com/py/")]
        self.assertTrue({c["id"] for c in created} <= set(ids))
        self.qr.delete_code(created[2]["id"])
        with self.assertRaises(ApiError) as gone:
            self.qr.get_code(created[2]["id"])
        self.assertEqual(gone.exception.status, 404)

    def test_password_protected_code(self):
        code = self.qr.create_code({"content": "https://example.com/py/members", "password": "py secret"})
        self.assertTrue(code["password_protected"])
        self.assertNotIn("password", code)
        self.assertEqual(scan(code["scan_url"]), 200)  # the unlock page
        opened = self.qr.update_code(code["id"], {"password": None})
        self.assertFalse(opened["password_protected"])
        self.assertEqual(scan(code["scan_url"]), 302)
        with self.assertRaises(ApiError) as refused:
            self.qr.update_code(code["id"], {"password": ""})
        self.assertEqual(refused.exception.status, 422)

    def test_app_links_and_utm(self):
        code = self.qr.create_code({
            "content": "https://example.com/py/app",
            "app_links": {"ios": {"store_url": "https://apps.apple.com/app/id1234567890"}},
            "utm": {"utm_source": "py"},
        })
        self.assertEqual(code["app_links"]["ios"]["redirect_url"], "https://apps.apple.com/app/id1234567890")
        self.assertIsNone(code["app_links"]["android"])
        self.assertEqual(code["utm"]["utm_source"], "py")
        iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
        desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
        self.assertEqual(location(code["scan_url"], iphone), "https://apps.apple.com/app/id1234567890")
        self.assertEqual(location(code["scan_url"], desktop), "https://example.com/py/app?utm_source=py")
        with self.assertRaises(ApiError) as refused:
            self.qr.update_code(code["id"], {"app_links": {"ios": {"link": "javascript:alert(1)"}}})
        self.assertEqual(refused.exception.status, 422)
        cleared = self.qr.update_code(code["id"], {"app_links": None, "utm": None})
        self.assertIsNone(cleared["app_links"])
        self.assertIsNone(cleared["utm"])

    def test_preview(self):
        code = self.qr.create_code({"content": "https://example.com/py/card", "preview": {"title": "Py <card>"}})
        self.assertEqual(code["preview"], {"title": "Py <card>", "description": None, "image_url": None})
        crawler = urllib.request.Request(code["scan_url"], headers={"User-Agent": "Slackbot-LinkExpanding 1.0"})
        with urllib.request.urlopen(crawler) as page:
            self.assertIn('<meta property="og:title" content="Py &lt;card&gt;">', page.read().decode())
        with self.assertRaises(ApiError) as refused:
            self.qr.update_code(code["id"], {"preview": {"image_url": "http://example.com/a.png"}})
        self.assertEqual(refused.exception.status, 422)
        self.assertIsNone(self.qr.update_code(code["id"], {"preview": None})["preview"])

    def test_utm_templates(self):
        template = self.qr.create_utm_template("py posters", utm_source="poster", utm_medium="print")
        self.assertIn(template["id"], [t["id"] for t in self.qr.list_utm_templates()])
        code = self.qr.create_code({
            "content": "https://example.com/py/t",
            "utm_template_id": template["id"],
            "utm": {"utm_medium": "flyer"},
        })
        self.assertEqual((code["utm"]["utm_source"], code["utm"]["utm_medium"]), ("poster", "flyer"))
        changed = self.qr.update_utm_template(template["id"], {"utm_medium": None})
        self.assertIsNone(changed["utm_medium"])
        self.qr.delete_utm_template(template["id"])
        with self.assertRaises(ApiError) as gone:
            self.qr.get_utm_template(template["id"])
        self.assertEqual(gone.exception.status, 404)
        self.assertEqual(self.qr.get_code(code["id"])["utm"]["utm_source"], "poster")

    def test_tags(self):
        suffix = str(time.time_ns())
        tag = self.qr.create_tag(f"py-{suffix}", color="#E8710A")
        self.assertEqual((tag["color"], tag["code_count"]), ("#e8710a", 0))
        code = self.qr.create_code({"content": "https://example.com/py/tagged", "tags": [f"PY-{suffix}", f"other-{suffix}"]})
        self.assertEqual(code["tags"], [f"other-{suffix}", f"py-{suffix}"])
        self.assertEqual([c["id"] for c in self.qr.iter_codes(limit=1, tag=[f"py-{suffix}", f"none-{suffix}"])], [code["id"]])
        self.assertEqual(self.qr.update_tag(tag["id"], {"name": f"Py-{suffix}"})["code_count"], 1)
        self.assertIn(tag["id"], [t["id"] for t in self.qr.iter_tags(limit=1)])
        self.assertEqual(self.qr.overview(tag=f"py-{suffix}")["total_codes"], 1)
        self.qr.delete_tag(tag["id"])
        self.assertEqual(self.qr.get_code(code["id"])["tags"], [f"other-{suffix}"])

    def test_audit_log(self):
        code = self.qr.create_code({"content": "https://example.com/py/audited"})
        self.qr.update_code(code["id"], {"content": "https://example.com/py/audited/2"})
        entries = self.qr.list_audit_log(object_id=code["id"])["data"]
        self.assertEqual([e["action"] for e in entries], ["code.updated", "code.created"])
        self.assertEqual(entries[0]["actor"]["kind"], "api_key")
        self.assertEqual(entries[0]["summary"]["changes"]["destination"]["new"], "https://example.com/py/audited/2")
        first = self.qr.list_audit_log(object_id=code["id"], limit=1)
        self.assertEqual((len(first["data"]), first["data"][0]["id"]), (1, entries[0]["id"]))
        self.assertIsNotNone(first["next_cursor"])
        paged = list(self.qr.iter_audit_log(object_id=code["id"], limit=1))
        self.assertEqual([e["id"] for e in paged], [e["id"] for e in entries])
        created = [e["id"] for e in self.qr.iter_audit_log(action="code.created", since=entries[1]["at"], limit=2)]
        self.assertIn(entries[1]["id"], created)
        csv = self.qr.export_audit_log(object_id=code["id"]).splitlines()
        self.assertTrue(csv[0].startswith("id,at,actor_kind,actor_id,address_hash,action"), csv[0])
        self.assertEqual([line.split(",")[0] for line in csv[1:]], [e["id"] for e in entries])
        with self.assertRaises(ApiError) as refused:
            self.qr.list_audit_log(action="code.painted")
        self.assertEqual((refused.exception.status, refused.exception.errors[0]["path"]), (422, "action"))

    def test_validation_errors_name_every_field(self):
        with self.assertRaises(ApiError) as bad:
            self.qr.create_code({"content": "not a url", "design": {"style": "wavy"}})
        self.assertEqual(bad.exception.status, 422)
        self.assertEqual({e["path"] for e in bad.exception.errors}, {"content", "design.style"})

    def test_routing_rules(self):
        code = self.qr.create_code({"content": "https://example.com/py/routing"})
        rule = self.qr.add_rule(code["id"], {"type": "device", "conditions": {"devices": ["ios"]}, "destination": "https://apps.apple.com/app"})
        routing = self.qr.get_routing(code["id"])
        self.assertTrue(routing["enabled"])
        self.assertEqual([r["destination"] for r in routing["rules"]], ["https://apps.apple.com/app"])
        self.qr.delete_rule(code["id"], rule["ruleId"])
        self.assertEqual(self.qr.get_routing(code["id"])["rules"], [])

    def test_domains(self):
        # No verify call here: the service's resolver would look the record up in real DNS.
        hostname = f"py-{int(time.time() * 1000)}.example"
        domain = self.qr.add_domain(hostname.upper(), fallback_url="https://example.com/")
        self.assertEqual((domain["hostname"], domain["status"]), (hostname, "pending"))
        self.assertEqual(domain["verification"]["name"], f"_qr-verify.{hostname}")
        self.assertIn(domain["id"], [d["id"] for d in self.qr.list_domains()])
        self.assertIsNone(self.qr.update_domain(domain["id"], None)["fallback_url"])
        with self.assertRaises(ApiError) as refused:
            self.qr.create_code({"content": "https://example.com/py/domain", "domain": hostname})
        self.assertEqual([e["path"] for e in refused.exception.errors], ["domain"])
        self.qr.remove_domain(domain["id"])
        with self.assertRaises(ApiError) as gone:
            self.qr.get_domain(domain["id"])
        self.assertEqual(gone.exception.status, 404)

    def test_bulk_create(self):
        result = self.qr.bulk_create([{"content": f"https://example.com/py/bulk/{i}"} for i in range(5)])
        self.assertEqual(len(result["data"]), 5)

    def test_import_links(self):
        keyword = f"py-import-{int(time.time() * 1000)}"
        export = f"keyword,url,title,timestamp,ip,clicks\n{keyword},https://example.com/py/imported,Py,2024-01-02 03:04:05,203.0.113.1,9\n"
        dry = self.qr.import_links("yourls_csv", export, dry_run=True)
        self.assertEqual((dry["would_create"], dry["created"]), (1, 0))
        made = self.qr.import_links("yourls_csv", export)
        self.assertEqual(made["created"], 1)
        code = self.qr.get_code(made["rows"][0]["code_id"])
        self.assertEqual((code["imported_scans"], code["created_at"]), (9, "2024-01-02T03:04:05.000Z"))
        self.assertEqual(self.qr.import_links("yourls_csv", export)["existing"], 1)

    def test_scans_show_in_analytics(self):
        code = self.qr.create_code({"content": "https://example.com/py/scanned"})
        for _ in range(3):
            self.assertEqual(scan(code["scan_url"]), 302)
        counted = eventually(lambda: self.qr.code_scans(code["id"])["total_scans"] == 3)
        self.assertTrue(counted, "three scans should be counted")
        analytics = self.qr.code_scans(code["id"], granularity="day", timezone="Europe/Berlin")
        self.assertEqual(sum(p["scans"] for p in analytics["timeseries"]), 3)
        self.assertEqual(len(list(self.qr.iter_raw_scans(code["id"], limit=2))), 3)
        self.assertGreaterEqual(self.qr.overview()["total_scans"], 3)

    def test_signed_webhook_verifies(self):
        received: list[tuple[bytes, dict[str, str]]] = []

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((body, dict(self.headers.items())))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            endpoint = self.qr.request("POST", "/webhooks", {
                "url": f"http://127.0.0.1:{server.server_address[1]}/hook",
                "events": ["code.created"],
            })
            code = self.qr.create_code({"content": "https://example.com/py/webhook"})
            self.assertTrue(eventually(lambda: any(code["id"].encode() in body for body, _ in received)))
            body, headers = next((b, h) for b, h in received if code["id"].encode() in b)
            event = verify_webhook(endpoint["secret"], body, headers)
            self.assertEqual(event["type"], "code.created")
            self.assertEqual(event["data"]["id"], code["id"])
            self.qr.request("DELETE", f"/webhooks/{endpoint['id']}")
        finally:
            server.shutdown()
