"""Host and Origin checks, and no version banner: what a DNS-rebinding page or a prying scan meets."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from hostilekit import bridge, http_get, raw_websocket, settings_for

from bridge.server.door import Door
from bridge.server.origins import host_allowed, normal_origin
from devkit.serve import BUDGET_S

PATHS = ["/healthz", "/schema", "/ws", "/no-such-page"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.asyncio
async def test_a_foreign_host_header_is_refused_on_every_endpoint(tmp_path: Path, path: str) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        status, _ = await http_get(served.port, path, [("Host", f"rebind.attacker.example:{served.port}")])
        assert status == 403
        status, _ = await http_get(served.port, path, [])  # no Host at all: aiohttp refuses it itself
        assert status == 400


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST.", "127.0.0.1", "127.0.0.1:{port}", "[::1]:{port}", "vtt.localhost:{port}"],
)
@pytest.mark.asyncio
async def test_loopback_names_and_addresses_are_served(tmp_path: Path, host: str) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        status, _ = await http_get(served.port, "/healthz", [("Host", host.format(port=served.port))])
        assert status == 200


@pytest.mark.asyncio
async def test_allow_remote_accepts_any_host(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path, door=Door(allow_remote=True))) as served:
        status, _ = await http_get(served.port, "/healthz", [("Host", "bridge.example.org")])
        assert status == 200


def test_host_rules() -> None:
    assert host_allowed("10.0.0.5:8765", arrived_on="10.0.0.5")  # the address the bridge is bound to
    assert not host_allowed("10.0.0.5:8765", arrived_on="127.0.0.1")
    assert not host_allowed("localhost.attacker.example", arrived_on="127.0.0.1")
    assert not host_allowed("127.0.0.1.nip.io", arrived_on="127.0.0.1")
    assert not host_allowed("", arrived_on="127.0.0.1")


@pytest.mark.asyncio
async def test_the_websocket_origin_is_checked_against_the_allow_list(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="volley.bridge")
    door = Door(allow_origins=("http://localhost:30000", "https://vtt.example"))
    async with bridge(settings_for(tmp_path, door=door)) as served:
        evil = await raw_websocket(served.port, headers={"Origin": "https://attacker.example"})
        assert evil.status == 403
        evil.close()
        for origin in ("http://localhost:30000", "HTTPS://VTT.example:443"):
            good = await raw_websocket(served.port, headers={"Origin": origin})
            assert good.status == 101
            good.close()
        tool = await raw_websocket(served.port)  # no Origin: not a browser (volley replay --against)
        assert tool.status == 101
        tool.close()
    said = [record.getMessage() for record in caplog.records]
    assert any("accepted from http://localhost:30000, https://vtt.example only" in line for line in said)
    assert any("refused a websocket from origin 'https://attacker.example'" in line for line in said)


@pytest.mark.asyncio
async def test_any_origin_is_accepted_by_default_and_the_log_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="volley.bridge")
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port, headers={"Origin": "https://anywhere.example"})
        assert raw.status == 101
        raw.close()
    assert any("from any Origin" in record.getMessage() for record in caplog.records)


def test_origins_are_compared_in_their_normal_form() -> None:
    assert normal_origin("HTTP://Foundry.Example:80/") == "http://foundry.example"
    assert normal_origin("https://vtt.example:30000") == "https://vtt.example:30000"
    assert normal_origin("http://[::1]:30000") == "http://[::1]:30000"
    for wrong in ("foundry.example", "http://vtt.example/game", "http://vtt.example/?x=1"):
        with pytest.raises(ValueError, match="not an origin"):
            normal_origin(wrong)


@pytest.mark.asyncio
async def test_no_response_names_python_or_aiohttp(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        seen = []
        for path in PATHS:
            _, headers = await http_get(served.port, path, [("Host", "127.0.0.1")])
            seen.append(headers.get("server"))
        _, headers = await http_get(served.port, "/healthz", [("Host", "rebind.attacker.example")])
        seen.append(headers.get("server"))
        raw = await raw_websocket(served.port)
        seen.append(raw.headers.get("server"))
        raw.close()
        # A request aiohttp cannot even parse is answered by aiohttp itself, outside the app.
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n")
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), BUDGET_S)).decode()
        writer.transport.abort()
        assert head.split("\r\n")[0].split()[1] == "400"
        seen.extend(
            line.partition(":")[2].strip()
            for line in head.split("\r\n")
            if line.lower().startswith("server:")
        )
    assert seen == ["Volley"] * 7, seen


def test_serve_max_connections_sets_the_cap_and_keeps_a_slot_for_token_holders() -> None:
    from bridge.cli.commands import _door
    from bridge.cli.program import build_parser

    assert _door(build_parser().parse_args(["serve"])) == Door()
    wide = _door(build_parser().parse_args(["serve", "--max-connections", "300"]))
    assert (wide.max_connections, wide.max_strangers) == (300, Door().max_strangers)
    narrow = _door(build_parser().parse_args(["serve", "--max-connections", "10"]))
    assert (narrow.max_connections, narrow.max_strangers) == (10, 9)
