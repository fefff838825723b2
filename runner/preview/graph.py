"""A `gram` block → a small drawing of its graph, as SVG made here (no script, no library).

The block is read back into nodes and relationships: `(n5:Entity {key: "orders service"})` defines
node n5, a later `(n5)` refers to it, and `-[r51:ABOUT]->` / `<-[r51:ABOUT]-` between two nodes is a
relationship walked in the direction its arrow shows. Every node is drawn once, however many rows
show it, as a circle coloured by its first label, with a caption from its first property among
CAPTION_KEYS under it; a relationship is an arrow with its type, from the edge of its start node to the
edge of its end node, where a node's edge takes in its caption (`node_outline`), so that no line or
arrowhead is drawn over a node's name. The layout is a force-directed one
(Fruchterman and Reingold) from fixed starting places, so the same block always gives the same
drawing. Values are kept as the text the block writes them in; the drawing is for reading, and the
text beside it is the record.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from html import escape

from runner.check.compare import node_spans

NODE = re.compile(r"^\((?P<id>n\d+)(?P<labels>(?::(?:`[^`]*`|[^\s:{)`]+))*)\s*(?P<props>\{.*\})?\)$",
                  re.DOTALL)
LABEL = re.compile(r":(`[^`]*`|[^\s:{)`]+)")
RELATIONSHIP = re.compile(
    r"^(?P<left><)?-\[(?P<id>r\d+)?(?::(?P<type>`[^`]*`|[^\s{\]]+))?\s*(?P<props>\{.*\})?\]-(?P<right>>)?$",
    re.DOTALL)
CAPTION_KEYS = ("name", "title", "text", "key", "id", "slot")
PALETTE = ("#4c8eda", "#f79767", "#57c7e3", "#d9c8ae", "#8dcc93", "#ecb5c9", "#ffc454", "#c990c0")
"""Fill colours by a label's order of appearance in the block (Neo4j Browser's first eight)."""
MAX_NODES = 60
"""Past this many nodes a drawing no longer reads: the block is shown as text alone."""
RADIUS = 28
CAPTION_FONT = 13
CAPTION_CHAR = 7.2
"""The caption's font size (as preview.css sets it) and the width of one of its characters on average (a
sans-serif's is about 0.55 em), for the box its text takes."""
CAPTION_DROP = RADIUS + 17
"""From a node's centre down to its caption's baseline."""
MAX_CAPTION = 22
"""Characters of a caption past which it is cut with an ellipsis."""
ARROW = 10.0
"""The arrowhead's length and width, in the drawing's units."""
GAP = 3.0
"""Space left between a node's outline and the line or arrowhead that reaches it."""
LOOP_HEIGHT = 84
"""How far above its node's centre a relationship from a node to itself, and its type, reach."""
EDGE_LENGTH = 120.0
"""Average relationship length in the drawing, in the units of its font sizes (CSS pixels at full size)."""


Point = tuple[float, float]


class NotAGraph(ValueError):
    """The block's rows are not written as gram nodes and relationships."""


@dataclass
class GraphNode:
    id: str
    labels: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)
    text: str = ""

    @property
    def caption(self) -> str:
        for key in CAPTION_KEYS:
            if key in self.properties:
                return _unquote(self.properties[key])
        return self.id


@dataclass
class GraphRelationship:
    id: str
    type: str
    start: str
    end: str
    text: str = ""


@dataclass
class Graph:
    nodes: dict[str, GraphNode] = field(default_factory=dict)
    relationships: dict[str, GraphRelationship] = field(default_factory=dict)


def read_gram(text: str) -> Graph:
    """The nodes and relationships a gram block's rows write (its `// N rows` header skipped)."""
    graph = Graph()
    lines = [line.strip() for line in text.split("\n") if line.strip() and not line.strip().startswith("//")]
    for line in lines:
        spans = node_spans(line)
        if not spans:
            raise NotAGraph(f"{line[:40]!r} has no node")
        ids = [_add_node(graph, line[start:end]) for start, end in spans]
        for index in range(len(spans) - 1):
            between = line[spans[index][1]:spans[index + 1][0]].strip()
            if between in (",", ""):
                continue
            _add_relationship(graph, between, ids[index], ids[index + 1])
    return graph


def _add_node(graph: Graph, text: str) -> str:
    match = NODE.match(text)
    if not match:
        raise NotAGraph(f"{text[:40]!r} is not a node such as (n1:Label {{…}})")
    node = graph.nodes.setdefault(match["id"], GraphNode(match["id"]))
    if match["labels"] or match["props"]:
        node.labels = [label.strip("`") for label in LABEL.findall(match["labels"])]
        node.properties = read_map(match["props"] or "{}")
        node.text = text
    return node.id


def _add_relationship(graph: Graph, text: str, left: str, right: str) -> None:
    match = RELATIONSHIP.match(text)
    if not match or bool(match["left"]) == bool(match["right"]):
        raise NotAGraph(f"{text[:40]!r} is not a relationship such as -[r1:TYPE]->")
    start, end = (right, left) if match["left"] else (left, right)
    key = match["id"] or f"{start}-{end}-{len(graph.relationships)}"
    kind = (match["type"] or "").strip("`")
    graph.relationships.setdefault(key, GraphRelationship(key, kind, start, end, text))


def read_map(text: str) -> dict[str, str]:
    """`{key: "v", n: 1}` → {"key": '"v"', "n": "1"}: the value texts as written."""
    inner = text.strip()[1:-1].strip()
    if not inner:
        return {}
    entries = {}
    for part in _split_top_level(inner):
        key, _, value = part.partition(":")
        entries[key.strip().strip("`")] = value.strip()
    return entries


def _split_top_level(text: str) -> list[str]:
    parts, depth, quote, start, index = [], 0, "", 0, 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"`":
            quote = char
        elif char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
        index += 1
    parts.append(text[start:])
    return parts


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return text


def layout(graph: Graph, *, iterations: int = 300) -> dict[str, Point]:
    """Node id → (x, y), about 140 units between linked nodes; the same graph always gets the same places."""
    ids = list(graph.nodes)
    count = len(ids)
    if count == 1:
        return {ids[0]: (0.0, 0.0)}
    ideal = 150.0
    radius = ideal * count / (2 * math.pi) + ideal / 2
    places = {node: [radius * math.cos(2 * math.pi * i / count), radius * math.sin(2 * math.pi * i / count)]
              for i, node in enumerate(ids)}
    edges = [(item.start, item.end) for item in graph.relationships.values() if item.start != item.end]
    temperature = radius / 2
    for step in range(iterations):
        moves = {node: [0.0, 0.0] for node in ids}
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                dx, dy = places[a][0] - places[b][0], places[a][1] - places[b][1]
                distance = math.hypot(dx, dy) or 0.01
                push = ideal * ideal / distance
                moves[a][0] += dx / distance * push
                moves[a][1] += dy / distance * push
                moves[b][0] -= dx / distance * push
                moves[b][1] -= dy / distance * push
        for a, b in edges:
            dx, dy = places[a][0] - places[b][0], places[a][1] - places[b][1]
            distance = math.hypot(dx, dy) or 0.01
            pull = distance * distance / ideal
            moves[a][0] -= dx / distance * pull
            moves[a][1] -= dy / distance * pull
            moves[b][0] += dx / distance * pull
            moves[b][1] += dy / distance * pull
        for node in ids:
            length = math.hypot(*moves[node]) or 0.01
            reach = min(length, temperature)
            places[node][0] += moves[node][0] / length * reach
            places[node][1] += moves[node][1] / length * reach
        temperature = max(radius / 2 * (1 - (step + 1) / iterations), 1.0)
    return upright({node: (x, y) for node, (x, y) in places.items()}, edges)


def upright(places: dict[str, Point], edges: list[tuple[str, str]],
            *, edge_length: float = EDGE_LENGTH) -> dict[str, Point]:
    """The layout scaled so that relationships average `edge_length`, and turned so that its longest
    extent runs down the page (the drawing sits in a column beside the block's text), the block's
    first node at the top."""
    ids = list(places)
    lengths = [math.dist(places[a], places[b]) for a, b in edges]
    scale = edge_length / (sum(lengths) / len(lengths)) if lengths and sum(lengths) else 1.0
    cx = sum(x for x, _ in places.values()) / len(ids)
    cy = sum(y for _, y in places.values()) / len(ids)
    centred = {node: ((x - cx) * scale, (y - cy) * scale) for node, (x, y) in places.items()}
    sxx = sum(x * x for x, _ in centred.values())
    syy = sum(y * y for _, y in centred.values())
    sxy = sum(x * y for x, y in centred.values())
    turn = math.pi / 2 - 0.5 * math.atan2(2 * sxy, sxx - syy)  # the principal axis onto the vertical
    cos, sin = math.cos(turn), math.sin(turn)
    turned = {node: (x * cos - y * sin, x * sin + y * cos) for node, (x, y) in centred.items()}
    if turned[ids[0]][1] > 0:  # the first node written goes at the top
        turned = {node: (-x, -y) for node, (x, y) in turned.items()}
    return turned


@dataclass(frozen=True)
class Box:
    """A rectangle of the drawing, its sides parallel to the axes (y grows downwards)."""

    left: float
    top: float
    right: float
    bottom: float

    def exit(self, origin: Point, direction: Point) -> float | None:
        """How far along the ray from `origin` (a unit `direction`) it leaves the box; None if it misses."""
        near, far = -math.inf, math.inf
        for start, step, low, high in ((origin[0], direction[0], self.left, self.right),
                                       (origin[1], direction[1], self.top, self.bottom)):
            if abs(step) < 1e-12:
                if not low <= start <= high:
                    return None
                continue
            first, second = sorted(((low - start) / step, (high - start) / step))
            near, far = max(near, first), min(far, second)
        return far if near <= far and far >= 0 else None


@dataclass(frozen=True)
class Outline:
    """What a node takes on the drawing: its circle and, under it, its caption's box."""

    centre: Point
    caption: Box

    def exit(self, direction: Point) -> float:
        """How far from the centre a ray in `direction` (a unit vector) leaves the circle and the caption."""
        through_caption = self.caption.exit(self.centre, direction)
        return max(RADIUS, through_caption or 0.0)


def caption_text(node: GraphNode) -> str:
    caption = node.caption
    return caption if len(caption) <= MAX_CAPTION else caption[:MAX_CAPTION - 1] + "…"


def node_outline(node: GraphNode, place: Point) -> Outline:
    """The circle and the caption's box of `node` drawn at `place` (its caption centred under it, on a
    baseline CAPTION_DROP below the centre)."""
    x, y = place
    half = len(caption_text(node)) * CAPTION_CHAR / 2 + 2
    baseline = y + CAPTION_DROP
    box = Box(x - half, baseline - CAPTION_FONT, x + half, baseline + CAPTION_FONT * 0.3)
    return Outline(place, box)


def graph_svg(graph: Graph) -> str:
    """The drawing as an `<svg>` element that scales to its container."""
    places = layout(graph)
    outlines = {node.id: node_outline(node, places[node.id]) for node in graph.nodes.values()}
    colours: dict[str, str] = {}
    for node in graph.nodes.values():
        label = node.labels[0] if node.labels else ""
        colours.setdefault(label, PALETTE[len(colours) % len(PALETTE)])
    margin = RADIUS + 70
    xs = [x for x, _ in places.values()]
    ys = [y for _, y in places.values()]
    looped = {item.start for item in graph.relationships.values() if item.start == item.end}
    left = min(xs) - margin
    top = min(y - (LOOP_HEIGHT if node in looped else RADIUS + 20) for node, (_, y) in places.items())
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - top + RADIUS + 30
    parts = [f'<svg class="cb-graph" xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" '
             f'viewBox="{left:.0f} {top:.0f} {width:.0f} {height:.0f}" '
             f'aria-label="{len(graph.nodes)} nodes, {len(graph.relationships)} relationships">',
             # the tip at the path's end (refX), ARROW long and wide in the drawing's own units
             f'<defs><marker id="cb-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" '
             f'markerWidth="{ARROW:g}" markerHeight="{ARROW:g}" orient="auto-start-reverse">'
             '<path d="M0,0 L10,5 L0,10 z" class="cb-arrow"/></marker></defs>']
    pairs: dict[frozenset[str], int] = {}
    for item in graph.relationships.values():
        parts.append(_relationship_svg(item, outlines, pairs))
    for node in graph.nodes.values():
        parts.append(_node_svg(node, places[node.id], colours[node.labels[0] if node.labels else ""]))
    parts.append("</svg>")
    return "".join(parts)


def _relationship_svg(item: GraphRelationship, outlines: dict[str, Outline],
                      pairs: dict[frozenset[str], int]) -> str:
    """A quadratic curve from the start node's outline to the end node's, its arrowhead's tip GAP short of
    the end node's outline (`_ends`)."""
    (x1, y1) = outlines[item.start].centre
    title = f"<title>{escape(item.text or item.id)}</title>"
    group = (f'<g class="cb-graph-rel" data-start="{escape(item.start)}" data-end="{escape(item.end)}">'
             f"{title}")
    if item.start == item.end:  # a loop over the node's top; its caption is underneath
        lean = math.radians(20)
        sx, sy = x1 - RADIUS * math.sin(lean), y1 - RADIUS * math.cos(lean)
        ex, ey = x1 + (RADIUS + GAP) * math.sin(lean), y1 - (RADIUS + GAP) * math.cos(lean)
        path = (f"M{sx:.1f},{sy:.1f} C{x1 - 40:.1f},{y1 - 80:.1f} "
                f"{x1 + 40:.1f},{y1 - 80:.1f} {ex:.1f},{ey:.1f}")
        label = f'<text class="cb-graph-type" x="{x1:.1f}" y="{y1 - 66:.1f}">{escape(item.type)}</text>'
        return f'{group}<path d="{path}" marker-end="url(#cb-arrow)"/>{label}</g>'
    pair = frozenset((item.start, item.end))
    bend = pairs.get(pair, 0)
    pairs[pair] = bend + 1
    offset = 0 if bend == 0 else 28 * ((bend + 1) // 2) * (1 if bend % 2 else -1)
    (sx, sy), (cx, cy), (ex, ey) = _ends(outlines[item.start], outlines[item.end], offset)
    path = f"M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}"
    mx, my = (sx + 2 * cx + ex) / 4, (sy + 2 * cy + ey) / 4
    if abs(ey - sy) > abs(ex - sx):  # mostly vertical: the type to the right of the line
        label = (f'<text class="cb-graph-type" x="{mx + 7:.1f}" y="{my + 4:.1f}" text-anchor="start">'
                 f"{escape(item.type)}</text>")
    else:
        label = f'<text class="cb-graph-type" x="{mx:.1f}" y="{my - 6:.1f}">{escape(item.type)}</text>'
    return f'{group}<path d="{path}" marker-end="url(#cb-arrow)"/>{label}</g>'


def _ends(start: Outline, end: Outline, offset: float) -> tuple[Point, Point, Point]:
    """The start, control and end points of the curve from `start` to `end`, bowed `offset` to one side.

    Each end leaves its node toward the bow's apex, GAP past the node's outline, caption included; the
    end point is the arrowhead's tip. When the nodes are too close for both captions to be cleared with
    room for the arrowhead, the start's caption is given up first (its text is drawn over the line, on a
    halo), then the end's. The control point is kept over the middle of the drawn part, so the arrowhead
    points at the end node even on a short straight line.
    """
    (x1, y1), (x2, y2) = start.centre, end.centre
    distance = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / distance, (y2 - y1) / distance
    apex = ((x1 + x2) / 2 - uy * offset, (y1 + y2) / 2 + ux * offset)
    out, back = _toward(start.centre, apex), _toward(end.centre, apex)
    leave, arrive = start.exit(out) + GAP, end.exit(back) + GAP
    budget = distance - ARROW
    if leave + arrive > budget:
        leave = RADIUS + GAP
    if leave + arrive > budget:
        arrive = RADIUS + GAP
    first = (x1 + out[0] * leave, y1 + out[1] * leave)
    last = (x2 + back[0] * arrive, y2 + back[1] * arrive)
    shift = ((first[0] + last[0] - x1 - x2) / 2, (first[1] + last[1] - y1 - y2) / 2)
    return first, (apex[0] + shift[0], apex[1] + shift[1]), last


def _toward(origin: Point, target: Point) -> Point:
    length = math.hypot(target[0] - origin[0], target[1] - origin[1]) or 1.0
    return (target[0] - origin[0]) / length, (target[1] - origin[1]) / length


def _node_svg(node: GraphNode, place: Point, colour: str) -> str:
    x, y = place
    label = node.labels[0] if node.labels else ""
    return (f'<g class="cb-graph-node" data-node="{escape(node.id)}">'
            f"<title>{escape(node.text or node.id)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" fill="{colour}"/>'
            f'<text class="cb-graph-label" x="{x:.1f}" y="{y + 4:.1f}">{escape(label[:10])}</text>'
            f'<text class="cb-graph-caption" x="{x:.1f}" y="{y + CAPTION_DROP:.1f}">{escape(caption_text(node))}'
            "</text></g>")


def gram_html(text: str) -> str:
    """The drawing with the block's text beside it; the text alone when it cannot be drawn."""
    pre = f'<pre class="cb-gram-text">{escape(text)}</pre>'
    try:
        graph = read_gram(text)
    except NotAGraph:
        return f'<div class="cb-gram">{pre}</div>'
    if not graph.nodes or len(graph.nodes) > MAX_NODES:
        return f'<div class="cb-gram">{pre}</div>'
    return f'<div class="cb-gram"><figure class="cb-gram-drawing">{graph_svg(graph)}</figure>{pre}</div>'
