"""The official schemas' datatypes, as the one predicate on a value.

sitemap.xsd gives lastmod the type ``xsd:date | xsd:dateTime`` (the image, video and
news schemas give their dates the same union) and priority ``xsd:decimal`` from 0.0 to
1.0. Rather than restate XML Schema's lexical rules by hand (the zone ``-00:00``,
``24:00:00``, years of five digits, ``.5`` and ``+0.5`` are all valid; ``1e-1``, a
zone past 14:00 and leap seconds are not), a value is validated by libxml2 against a
schema of one element of that type. Callers memoise per distinct value (``DateCache``,
``priority_value``): one validation costs about 2 microseconds.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (lxml loads with the first value judged: a command that judges none, --version, loads none)
    from lxml import etree

_SCHEMA = b"""<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <xsd:element name="date"><xsd:simpleType><xsd:union>
    <xsd:simpleType><xsd:restriction base="xsd:date"/></xsd:simpleType>
    <xsd:simpleType><xsd:restriction base="xsd:dateTime"/></xsd:simpleType>
  </xsd:union></xsd:simpleType></xsd:element>
  <xsd:element name="priority"><xsd:simpleType><xsd:restriction base="xsd:decimal">
    <xsd:minInclusive value="0.0"/><xsd:maxInclusive value="1.0"/>
  </xsd:restriction></xsd:simpleType></xsd:element>
</xsd:schema>"""


@cache
def _schema() -> etree.XMLSchema:
    from lxml import etree

    return etree.XMLSchema(etree.fromstring(_SCHEMA))


def _accepts(element: str, text: str) -> bool:
    from lxml import etree

    node = etree.Element(element)
    try:
        node.text = text
    except ValueError:  # a character XML cannot hold (a control character, a lone surrogate)
        return False
    return bool(_schema().validate(node))


def date_accepted(text: str) -> bool:
    """Whether the sitemap XSD's lastmod type (``xsd:date | xsd:dateTime``) accepts
    ``text`` as it stands in an element (whitespace around it collapses)."""
    return _accepts("date", text)


def priority_accepted(text: str) -> bool:
    """Whether the sitemap XSD's priority type (``xsd:decimal`` from 0.0 to 1.0)
    accepts ``text`` as it stands in an element."""
    return _accepts("priority", text)
