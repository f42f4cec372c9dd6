"""Each rule set's engine module offers every function of the engine contract (Engine), and
its rules adapter drives the module it names. mypy checks the signatures; this checks that
the contract's list and the modules agree at run time too, so a function dropped from an
engine or added to the contract without the engines is caught by the tests as well."""

from __future__ import annotations

import inspect

import pytest

from fourwinds.protocol.american import engine as american_engine
from fourwinds.protocol.american.table_rules import AmericanRules
from fourwinds.protocol.game import Engine
from fourwinds.protocol.mcr import engine as mcr_engine
from fourwinds.protocol.mcr.table_rules import MCRRules


def contract_functions() -> dict[str, int]:
    """The contract's functions and how many positional arguments each takes (without self)."""
    return {
        name: len(inspect.signature(member).parameters) - 1
        for name, member in vars(Engine).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


def test_contract_names_the_four_functions_the_table_uses() -> None:
    assert contract_functions() == {"apply": 2, "legal_actions": 2, "learn": 2, "public_digest": 1}


@pytest.mark.parametrize("module", [american_engine, mcr_engine], ids=["american", "mcr"])
def test_engine_module_offers_every_contract_function(module: object) -> None:
    for name, arity in contract_functions().items():
        function = getattr(module, name)
        positional = [
            p
            for p in inspect.signature(function).parameters.values()
            if p.default is inspect.Parameter.empty
        ]
        assert len(positional) == arity, name


def test_adapters_drive_their_own_engine_module() -> None:
    assert AmericanRules.engine is american_engine
    assert MCRRules.engine is mcr_engine
