"""One error hierarchy: every class is a ShotsmithError and the builtin a caller expects."""

from __future__ import annotations

import inspect

import pandas as pd
import pytest

import shotsmith as ss
from shotsmith import errors

BUILTINS = (ValueError, KeyError, LookupError, RuntimeError, OSError, TypeError)


def classes() -> list[type[Exception]]:
    return [
        c
        for _, c in inspect.getmembers(errors, inspect.isclass)
        if issubclass(c, Exception) and c.__module__ == errors.__name__
    ]


@pytest.mark.parametrize("cls", [c for c in classes() if c is not errors.ShotsmithError])
def test_each_error_has_shotsmiths_base_and_a_builtin_one(cls):
    assert issubclass(cls, errors.ShotsmithError)
    assert issubclass(cls, BUILTINS), f"{cls.__name__} has no builtin base"
    assert cls.__doc__, f"{cls.__name__} says nothing about when it is raised"


def test_a_missing_column_reads_as_its_message_not_a_quoted_key():
    with pytest.raises(KeyError) as info:  # a KeyError, as pandas users expect
        ss.write_copy(pd.DataFrame({"app_id": ["a"]}))
    message = str(info.value)
    assert isinstance(info.value, errors.MissingColumnError)
    assert not message.startswith("'"), message
    assert "run the stage that provides" in message


def test_a_bad_image_is_a_value_error(tmp_path):
    (tmp_path / "01_home.png").write_bytes(b"not a png at all")
    with pytest.raises(ValueError) as info:
        ss.read_screenshots(tmp_path)
    assert isinstance(info.value, errors.ShotsmithError)
    assert "01_home.png" in str(info.value)


def test_every_raise_names_its_kind_of_error():
    """A caller can catch a kind (a bad option, an unreadable file, a missing tool): no
    module raises the bare base class or a stray builtin where a shotsmith class fits."""
    import re
    from pathlib import Path

    src = Path(ss.__file__).parent
    bare = re.compile(r"raise (ShotsmithError|ValueError|RuntimeError)\(")
    offenders = [
        f"{path.relative_to(src)}:{number}"
        for path in sorted(src.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if bare.search(line)
    ]
    # a stage that breaks its own contract is a bug, not bad input: a RuntimeError
    assert [o.split(":")[0] for o in offenders] == ["columns.py"], offenders


def test_the_server_answers_each_kind_with_its_status():
    from shotsmith.server.errors import status_for

    assert status_for(errors.InvalidOptionError("x")) == (422, "invalid_request")
    assert status_for(errors.NotFoundError("x"))[0] == 404
    assert status_for(errors.StorageError("x"))[0] == 503
    assert status_for(errors.ToolMissingError("x"))[0] == 503


def test_the_hierarchy_lives_in_errors_py():
    """No module but errors.py defines a subclass of a shotsmith error class."""
    import ast
    from pathlib import Path

    src = Path(ss.__file__).parent
    ours = {c.__name__ for c in classes()}
    found: dict[str, set[str]] = {}
    for path in sorted(src.rglob("*.py")):
        if path.name == "errors.py" and path.parent == src:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = {
                    b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
                    for b in node.bases
                }
                if bases & ours:
                    found.setdefault(path.relative_to(src).as_posix(), set()).add(node.name)
    assert found == {}, f"these belong in errors.py: {found}"


def test_an_error_is_one_class_wherever_it_is_imported_from():
    """Code that catches ``shotsmith.llm.LLMError`` catches what the copy stage raises."""
    from shotsmith import llm, ocr
    from shotsmith.stages.copy import llm_copy

    assert llm.LLMError is errors.LLMError
    assert llm_copy.LLMRejected is errors.LLMRejected
    assert issubclass(errors.LLMRejected, errors.RemoteError)
    assert ocr.OCRUnavailableError is errors.OCRUnavailableError
    assert issubclass(errors.OCRUnavailableError, errors.ToolMissingError)


def test_a_domain_option_out_of_range_is_a_bad_option():
    frame = pd.DataFrame(
        {
            "app_id": ["a"],
            "position": [1],
            "project_name": ["PocketBudget"],
            "bundle_id": ["com.example.pocketbudget"],
            "screen": ["budgets"],
        }
    )
    with pytest.raises(errors.InvalidOptionError, match="min_confidence must be a number"):
        ss.detect_domain(frame, min_confidence=2)
