"""wss://: a bridge reachable from the network speaks TLS, or is told plainly that it does not."""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
from hostilekit import (
    TOKEN,
    bridge,
    closed_by_server,
    door_of,
    idle_socket,
    settings_for,
)
from websockets.asyncio.client import connect

from devkit.serve import BUDGET_S, GURPS_MP5, serve_command, serve_process


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, made with the system's openssl."""
    openssl = shutil.which("openssl")
    assert openssl, "these tests need the openssl command (Debian: apt-get install openssl)"
    where = tmp_path_factory.mktemp("tls")
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=BUDGET_S / 2,
    )
    return cert, key


def _trusting(cert: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(cert))
    return context


@pytest.mark.asyncio
async def test_a_bridge_with_a_certificate_serves_wss(tmp_path: Path, certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    async with bridge(settings_for(tmp_path, tls_cert=cert, tls_key=key)) as served:
        assert served.url.startswith("wss://127.0.0.1:")
        async with connect(served.url, ssl=_trusting(cert)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.send(json.dumps({"type": "attack", "id": "tls-1", "request": GURPS_MP5}))
            assert json.loads(await ws.recv())["type"] == "result"
            assert door_of(served)["authenticated"] == 1
        async with aiohttp.ClientSession() as session:
            url = f"https://127.0.0.1:{served.port}/healthz"
            async with session.get(url, ssl=_trusting(cert)) as response:
                assert response.status == 200 and (await response.json())["status"] == "ok"


@pytest.mark.asyncio
async def test_plain_http_to_a_tls_bridge_gets_no_answer(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    async with bridge(settings_for(tmp_path, tls_cert=cert, tls_key=key)) as served:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        assert await closed_by_server(reader, timeout=BUDGET_S)
        assert await reader.read() == b""  # not one byte of HTTP in clear text
        writer.transport.abort()


@pytest.mark.asyncio
async def test_a_socket_that_never_starts_its_handshake_is_a_stranger_with_a_deadline(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    settings = settings_for(tmp_path, tls_cert=cert, tls_key=key)
    async with bridge(replace(settings, door=replace(settings.door, request_timeout=3))) as served:
        reader, writer = await idle_socket(served.port)
        async with asyncio.timeout(BUDGET_S):  # waits on conditions; the deadline only catches hangs
            while door_of(served)["strangers"] != 1:  # counted from accept, before any TLS
                await asyncio.sleep(0.01)
        assert await closed_by_server(reader, timeout=BUDGET_S)
        async with asyncio.timeout(BUDGET_S):
            while door_of(served)["strangers"] != 0:
                await asyncio.sleep(0.01)
        writer.transport.abort()


@pytest.mark.asyncio
async def test_volley_serve_prints_a_wss_url_with_tls(tmp_path: Path, certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    server = serve_process(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert server.url.startswith("wss://127.0.0.1:")
        assert f"paste https://127.0.0.1:{server.port}/module/module.json" in server.said[-1]
        async with connect(server.url, ssl=_trusting(cert)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
            assert json.loads(await ws.recv())["type"] == "welcome"
    finally:
        server.stop()


def _serve(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``volley serve`` that is expected to refuse to start (a hang is a failure, not a wait)."""
    return subprocess.run(
        serve_command(tmp_path / "d", tmp_path / "c", "--port", "0", "--token", TOKEN, *options),
        capture_output=True,
        text=True,
        timeout=BUDGET_S / 2,
        cwd=tmp_path,
        check=False,
    )


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--host", "0.0.0.0", "--allow-remote"], "--allow-remote without TLS would send the access token"),
        (["--allow-remote"], "--allow-remote without TLS would send the access token"),
        (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key go together"),
        (["--tls-key", "key.pem"], "--tls-cert and --tls-key go together"),
        (["--tls-cert", "missing.pem", "--tls-key", "missing.pem"], "cannot use --tls-cert/--tls-key"),
        (["--allow-origin", "foundry.example"], "argument --allow-origin: not an origin"),
    ],
    ids=["remote host", "loopback host", "cert alone", "key alone", "missing files", "origin without scheme"],
)
def test_serve_refuses_options_that_would_leak_the_token_or_make_no_sense(
    tmp_path: Path, options: list[str], says: str
) -> None:
    refused = _serve(tmp_path, *options)
    assert refused.returncode == 2
    assert says in refused.stderr


def test_a_garbage_certificate_is_refused_before_listening(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
    refused = _serve(tmp_path, "--tls-cert", str(junk), "--tls-key", str(junk))
    assert refused.returncode == 2
    assert "cannot use --tls-cert/--tls-key" in refused.stderr


def test_allow_remote_with_a_certificate_starts_without_insecure(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    server = serve_process(tmp_path, "--allow-remote", "--tls-cert", str(cert), "--tls-key", str(key))
    _, err = server.stop()
    assert server.url.startswith("wss://127.0.0.1:")
    assert "--insecure" not in err
