"""What the integrations share, without any tool: findings filtered by the one policy
(codes, prefixes or rule names, as --ignore takes them) and locale names as hreflang."""

from __future__ import annotations

import pytest

from sitemap_ext import langtags
from sitemap_ext.diagnostics import Diagnostic, Severity
from sitemap_ext.integrations import _common
from sitemap_ext.rules.config import ConfigError


def finding(code: str) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, "m", file="public/sitemap.xml", line=1)


def test_ignore_takes_codes_prefixes_and_rule_names() -> None:
    found = [finding("H112"), finding("U104"), finding("L108")]
    assert [d.code for d in _common.shown(found, ["hreflang-no-x-default", "L1"])] == ["U104"]
    with pytest.raises(ConfigError, match="url-dupe"):
        list(_common.shown(found, ["url-dupe"]))


@pytest.mark.parametrize("name, tag", [("pt_BR", "pt-BR"), ("en-us", "en-US"), ("de", "de"), ("zh_Hant_TW", "zh-Hant-TW"),
                                       ("xx_YY", "xx-YY")])
def test_a_tools_locale_name_is_its_hreflang_code(name: str, tag: str) -> None:
    assert langtags.from_locale(name) == tag
