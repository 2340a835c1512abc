"""A unit counter as SVG: side colours, a NATO-style type symbol with its size, the printed values, the id,
and the markers lying on it (disrupted, fired, reserve, truck, out of supply...)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

SIZE = 36.0  # a counter is a square of this many pixels

SIDE_STYLE = {  # fill, text
    "russia": ("#3a6db0", "#ffffff"), "soviet": ("#b5473a", "#ffffff"), "japan": ("#e8d27a", "#1a1a1a"),
}
MARKER_COLOURS = {"D1": "#f2c500", "D2": "#ff7a00", "F": "#e0601a", "R": "#2b7bd6", "T": "#6b6b6b",
                  "OOS": "#c0392b", "A": "#1a7f37", "r": "#999999", "BLK": "#c0392b", "SEA": "#7fd0ff",
                  "RTN": "#ffb0b0"}


@dataclass(frozen=True)
class CounterPic:
    unit: str
    side: str
    symbol: str            # infantry, cavalry, armor, mech, artillery, antitank, engineer, hq, air, naval...
    size: str = ""         # II, III, X, XX, XXX...
    values: str = ""       # the printed values in use, e.g. 8-2-5 or 4-10
    reduced: bool = False
    markers: tuple[str, ...] = field(default_factory=tuple)
    title: str = ""
    label: str = ""        # printed at the top instead of the id when the id is too long (naval fleets)

    def short(self) -> str:
        flags = "".join(f" [{m}]" for m in self.markers)
        return f"{self.unit} {self.values}{' (reduced)' if self.reduced else ''}{flags}".strip()


def _f(value: float) -> str:
    return f"{value:.1f}"


def symbol_svg(symbol: str, x: float, y: float, w: float, h: float, ink: str) -> list[str]:
    """The unit-type symbol inside a ``w`` x ``h`` box whose top-left corner is (x, y)."""
    box = f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(h)}" fill="none" stroke="{ink}" ' \
          'stroke-width="1"/>'
    line = f'stroke="{ink}" stroke-width="1"'
    out = [box]
    if symbol in ("infantry", "mech"):
        out.append(f'<path d="M{_f(x)},{_f(y)} L{_f(x + w)},{_f(y + h)} M{_f(x)},{_f(y + h)} L{_f(x + w)},{_f(y)}" '
                   f'{line}/>')
    if symbol in ("armor", "mech"):
        out.append(f'<rect x="{_f(x + w * 0.18)}" y="{_f(y + h * 0.22)}" width="{_f(w * 0.64)}" '
                   f'height="{_f(h * 0.56)}" rx="{_f(h * 0.28)}" fill="none" {line}/>')
    if symbol == "cavalry":
        out.append(f'<path d="M{_f(x)},{_f(y + h)} L{_f(x + w)},{_f(y)}" {line}/>')
    if symbol in ("artillery", "siege"):
        out.append(f'<circle cx="{_f(x + w / 2)}" cy="{_f(y + h / 2)}" r="{_f(h * 0.2)}" fill="{ink}"/>')
    if symbol == "siege":
        out.append(f'<path d="M{_f(x)},{_f(y + h * 0.8)} L{_f(x + w)},{_f(y + h * 0.8)}" {line}/>')
    if symbol == "antitank":
        out.append(f'<path d="M{_f(x)},{_f(y + h)} L{_f(x + w / 2)},{_f(y)} L{_f(x + w)},{_f(y + h)}" '
                   f'fill="none" {line}/>')
    if symbol == "antiair":
        out.append(f'<path d="M{_f(x)},{_f(y + h)} Q{_f(x + w / 2)},{_f(y - h * 0.2)} {_f(x + w)},{_f(y + h)}" '
                   f'fill="none" {line}/>')
    if symbol == "engineer":
        out.append(f'<path d="M{_f(x + w * 0.2)},{_f(y + h * 0.7)} L{_f(x + w * 0.2)},{_f(y + h * 0.3)} '
                   f'L{_f(x + w * 0.8)},{_f(y + h * 0.3)} L{_f(x + w * 0.8)},{_f(y + h * 0.7)} '
                   f'M{_f(x + w / 2)},{_f(y + h * 0.3)} L{_f(x + w / 2)},{_f(y + h * 0.7)}" fill="none" {line}/>')
    if symbol in ("fleet", "merchant"):  # a hull with a funnel (warships) or two masts (merchant ships)
        hull = (f'M{_f(x + w * 0.08)},{_f(y + h * 0.58)} L{_f(x + w * 0.92)},{_f(y + h * 0.58)} '
                f'L{_f(x + w * 0.8)},{_f(y + h * 0.85)} L{_f(x + w * 0.2)},{_f(y + h * 0.85)} Z')
        out.append(f'<path d="{hull}" fill="{ink}"/>')
        if symbol == "fleet":
            out.append(f'<rect x="{_f(x + w * 0.35)}" y="{_f(y + h * 0.38)}" width="{_f(w * 0.3)}" '
                       f'height="{_f(h * 0.2)}" fill="{ink}"/>')
            out.append(f'<rect x="{_f(x + w * 0.45)}" y="{_f(y + h * 0.15)}" width="{_f(w * 0.1)}" '
                       f'height="{_f(h * 0.25)}" fill="{ink}"/>')
        else:
            out.append(f'<path d="M{_f(x + w * 0.35)},{_f(y + h * 0.58)} L{_f(x + w * 0.35)},{_f(y + h * 0.12)} '
                       f'M{_f(x + w * 0.65)},{_f(y + h * 0.58)} L{_f(x + w * 0.65)},{_f(y + h * 0.12)}" {line}/>')
    if symbol in ("hq", "naval", "garrison", "air", "bridge"):
        text = {"hq": "HQ", "naval": "NAV", "garrison": "GAR", "air": "AIR", "bridge": "BR"}[symbol]
        out.append(f'<text x="{_f(x + w / 2)}" y="{_f(y + h * 0.78)}" font-size="{_f(h * 0.7)}" '
                   f'text-anchor="middle" fill="{ink}" font-weight="bold">{text}</text>')
    return out


def counter_svg(pic: CounterPic, cx: float, cy: float, top: bool = True) -> str:
    """One counter centred on (cx, cy). Counters under the top one are drawn plain (colour and edge)."""
    fill, ink = SIDE_STYLE.get(pic.side, ("#777777", "#ffffff"))
    s = SIZE
    x, y = cx - s / 2, cy - s / 2
    title = escape(pic.title or pic.short())
    out = [f'<g class="counter" data-unit="{escape(pic.unit)}"><title>{title}</title>',
           f'<rect x="{_f(x + 1.2)}" y="{_f(y + 1.2)}" width="{_f(s)}" height="{_f(s)}" rx="2.5" fill="#000" '
           'fill-opacity="0.35"/>',
           f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(s)}" height="{_f(s)}" rx="2.5" fill="{fill}" '
           'stroke="#1a1a1a" stroke-width="0.8"/>']
    if top:
        if pic.reduced:
            out.append(f'<rect x="{_f(x)}" y="{_f(y + s - 3)}" width="{_f(s)}" height="3" fill="#ffffff" '
                       'fill-opacity="0.75"/>')
        out.append(f'<text x="{_f(cx)}" y="{_f(y + 7.5)}" font-size="6.5" text-anchor="middle" fill="{ink}">'
                   f'{escape(pic.label or pic.unit)}</text>')
        out.append(f'<text x="{_f(cx)}" y="{_f(y + 12.6)}" font-size="5.5" text-anchor="middle" fill="{ink}">'
                   f'{escape(pic.size)}</text>')
        out += symbol_svg(pic.symbol, cx - 8.5, y + 13.6, 17, 10.4, ink)
        out.append(f'<text x="{_f(cx)}" y="{_f(y + s - 3.6)}" font-size="8.5" font-weight="bold" '
                   f'text-anchor="middle" fill="{ink}">{escape(pic.values)}</text>')
        for i, marker in enumerate(pic.markers):
            mx, my = x - 5 + i * 0.0, y - 4 + i * 10
            colour = MARKER_COLOURS.get(marker, "#444444")
            width = 5 + 4.6 * len(marker)
            out.append(f'<rect class="marker" x="{_f(mx)}" y="{_f(my)}" width="{_f(width)}" height="9" rx="1.5" '
                       f'fill="{colour}" stroke="#111" stroke-width="0.6"/>')
            out.append(f'<text x="{_f(mx + width / 2)}" y="{_f(my + 7)}" font-size="6.8" font-weight="bold" '
                       f'text-anchor="middle" fill="#111">{escape(marker)}</text>')
    out.append("</g>")
    return "".join(out)
