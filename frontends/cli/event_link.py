"""How the event commands reach the player's daemon: the running one, else one started on
the network (an event needs peers), as `play` starts one. Shared by `fourwinds tournament
...`, its sheets and `fourwinds bot --tournament`."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Mapping
from typing import Any

from fourwinds.frontends.cli.cli_common import config_of, data_dir_of, state_dir_of
from fourwinds.frontends.client.daemon_link import LocalApi, checked, connect
from fourwinds.frontends.client.local_seats import DaemonPlan, SoloBusy, ensure_daemon, is_running


def event_daemon(args: argparse.Namespace) -> LocalApi:
    """The running daemon of ``args``'s data folder, else one started on the network."""
    data_dir = data_dir_of(args)
    if is_running(data_dir):
        return connect(data_dir, subscribe=False)
    try:
        api, _ = ensure_daemon(DaemonPlan(data_dir, state_dir_of(args), config_of(args).port))
    except SoloBusy:
        return connect(data_dir, subscribe=False)
    return api


def ask_event_daemon(args: argparse.Namespace, request: Mapping[str, Any]) -> dict[str, Any]:
    """One request to that daemon, its answer checked (FourwindsError with its reason)."""
    api = event_daemon(args)
    try:
        return checked(api.request(dict(request)))
    finally:
        with contextlib.suppress(Exception):
            api.close()
