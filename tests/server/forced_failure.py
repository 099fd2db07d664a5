"""A test in another language than the service's: Python's standard library
drives a forced payment failure through the admin API of `orderpay serve`,
then checks the answer, the log record that explains it, and that the next
attempt goes back to the seeded draw."""

import json
import os
import re
import subprocess
import sys
import unittest
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "pkg", "server", "cli.js")


def call(url, method="GET", body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class ForcedFailure(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Failure rate 0: only the forced attempt can fail.
        cls.server = subprocess.Popen(
            ["node", CLI, "serve", "--port", "0", "--failure-rate", "0", "--seed", "5"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        first = cls.server.stdout.readline()
        match = re.search(r"serving on (http://\S+?)/api ", first)
        if not match:
            cls.server.kill()
            raise RuntimeError("orderpay serve did not start: " + first)
        cls.url = match.group(1)

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(timeout=10)
        cls.server.stdout.close()

    def test_a_forced_failure_then_the_draw_again(self):
        status, created = call(self.url + "/api/order/create", "POST", {"userId": "py", "price": 12.5})
        self.assertEqual((status, created["code"]), (200, 0))
        order_id = created["data"]["orderId"]

        status, forced = call(self.url + "/__orderpay/force-next", "POST", {"outcome": "failure", "count": 1})
        self.assertEqual(status, 200)
        self.assertEqual(forced["data"]["forced"], {"outcome": "failure", "remaining": 1})

        _, logs = call(self.url + "/__orderpay/logs")
        last = logs["data"]["records"][-1]["seq"]
        pay = {"orderId": order_id, "amount": 12.5, "paymentMethod": "CARD"}
        status, failed = call(self.url + "/api/payment/pay", "POST", pay)
        self.assertEqual(status, 200)
        self.assertEqual(failed, {"code": -1, "msg": "Third party payment failed", "data": None})

        _, logs = call(self.url + "/__orderpay/logs?after=%d" % last)
        service = [r for r in logs["data"]["records"] if r["stage"] == "service"]
        self.assertEqual(len(service), 1)
        self.assertEqual(service[0]["status"], "server_error")
        self.assertEqual(service[0]["outcome"]["rule"], "forced-next")
        self.assertFalse(service[0]["outcome"]["approved"])

        _, settings = call(self.url + "/__orderpay/settings")
        self.assertIsNone(settings["data"]["forced"])
        status, paid = call(self.url + "/api/payment/pay", "POST", pay)
        self.assertEqual(paid["data"]["status"], "SUCCESS")

    def test_a_bad_outcome_is_refused_naming_the_field(self):
        status, refused = call(self.url + "/__orderpay/force-next", "POST", {"outcome": "sometimes"})
        self.assertEqual(status, 400)
        self.assertTrue(refused["msg"].startswith("outcome: "), refused["msg"])


if __name__ == "__main__":
    sys.exit(unittest.main())
