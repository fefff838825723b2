"""A `gram` block → a small drawing of its graph, as SVG made here (no script, no library).

The block is read back into nodes and relationships: `(n5:Entity {key: "orders service"})` defines
node n5, a later `(n5)` refers to it, and `-[r51:ABOUT]->` / `<-[r51:ABOUT]-` between two nodes is a
relationship walked in the direction its arrow shows. Every node is drawn once, however many rows
show it, as a circle coloured by its first label, with a caption from its first property among
CAPTION_KEYS; a relationship is an arrow with its type. The layout is a force-directed one
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
EDGE_LENGTH = 120.0
"""Average relationship length in the drawing, in the units of its font sizes (CSS pixels at full size)."""


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


def layout(graph: Graph, *, iterations: int = 300) -> dict[str, tuple[float, float]]:
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


def upright(places: dict[str, tuple[float, float]], edges: list[tuple[str, str]],
            *, edge_length: float = EDGE_LENGTH) -> dict[str, tuple[float, float]]:
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


def graph_svg(graph: Graph) -> str:
    """The drawing as an `<svg>` element that scales to its container."""
    places = layout(graph)
    colours: dict[str, str] = {}
    for node in graph.nodes.values():
        label = node.labels[0] if node.labels else ""
        colours.setdefault(label, PALETTE[len(colours) % len(PALETTE)])
    margin = RADIUS + 70
    xs = [x for x, _ in places.values()]
    ys = [y for _, y in places.values()]
    left, top = min(xs) - margin, min(ys) - RADIUS - 20
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * RADIUS + 50
    parts = [f'<svg class="cb-graph" xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" '
             f'viewBox="{left:.0f} {top:.0f} {width:.0f} {height:.0f}" '
             f'aria-label="{len(graph.nodes)} nodes, {len(graph.relationships)} relationships">',
             '<defs><marker id="cb-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
             'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="cb-arrow"/>'
             '</marker></defs>']
    pairs: dict[frozenset[str], int] = {}
    for item in graph.relationships.values():
        parts.append(_relationship_svg(item, places, pairs))
    for node in graph.nodes.values():
        parts.append(_node_svg(node, places[node.id], colours[node.labels[0] if node.labels else ""]))
    parts.append("</svg>")
    return "".join(parts)


def _relationship_svg(item: GraphRelationship, places: dict[str, tuple[float, float]],
                      pairs: dict[frozenset[str], int]) -> str:
    (x1, y1), (x2, y2) = places[item.start], places[item.end]
    title = f"<title>{escape(item.text or item.id)}</title>"
    if item.start == item.end:
        path = (f"M{x1 - 10:.1f},{y1 - RADIUS + 2:.1f} C{x1 - 40:.1f},{y1 - 80:.1f} "
                f"{x1 + 40:.1f},{y1 - 80:.1f} {x1 + 10:.1f},{y1 - RADIUS + 2:.1f}")
        label = f'<text class="cb-graph-type" x="{x1:.1f}" y="{y1 - 66:.1f}">{escape(item.type)}</text>'
        return f'<g class="cb-graph-rel">{title}<path d="{path}" marker-end="url(#cb-arrow)"/>{label}</g>'
    pair = frozenset((item.start, item.end))
    bend = pairs.get(pair, 0)
    pairs[pair] = bend + 1
    dx, dy = x2 - x1, y2 - y1
    distance = math.hypot(dx, dy) or 1.0
    ux, uy = dx / distance, dy / distance
    sx, sy = x1 + ux * RADIUS, y1 + uy * RADIUS
    ex, ey = x2 - ux * (RADIUS + 2), y2 - uy * (RADIUS + 2)
    offset = 0 if bend == 0 else 28 * ((bend + 1) // 2) * (1 if bend % 2 else -1)
    cx, cy = (sx + ex) / 2 - uy * offset, (sy + ey) / 2 + ux * offset
    path = f"M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}"
    mx, my = (sx + 2 * cx + ex) / 4, (sy + 2 * cy + ey) / 4
    if abs(dy) > abs(dx):  # mostly vertical: the type to the right of the line
        label = (f'<text class="cb-graph-type" x="{mx + 7:.1f}" y="{my + 4:.1f}" text-anchor="start">'
                 f"{escape(item.type)}</text>")
    else:
        label = f'<text class="cb-graph-type" x="{mx:.1f}" y="{my - 6:.1f}">{escape(item.type)}</text>'
    return f'<g class="cb-graph-rel">{title}<path d="{path}" marker-end="url(#cb-arrow)"/>{label}</g>'


def _node_svg(node: GraphNode, place: tuple[float, float], colour: str) -> str:
    x, y = place
    caption = node.caption
    if len(caption) > 22:
        caption = caption[:21] + "…"
    label = node.labels[0] if node.labels else ""
    return (f'<g class="cb-graph-node" data-node="{escape(node.id)}">'
            f"<title>{escape(node.text or node.id)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" fill="{colour}"/>'
            f'<text class="cb-graph-label" x="{x:.1f}" y="{y + 4:.1f}">{escape(label[:10])}</text>'
            f'<text class="cb-graph-caption" x="{x:.1f}" y="{y + RADIUS + 17:.1f}">{escape(caption)}</text>'
            "</g>")


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
