"""Connectivity on a map: one union-find shared by the loader, the engine and the views."""

from __future__ import annotations

from collections.abc import Iterable


def city_labels(n_cities: int, links: Iterable[tuple[int, int]]) -> list[int]:
    """A component label per city (0..n_cities-1), given (city, city) links."""
    parent = list(range(n_cities))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        x, y = find(a), find(b)
        if x != y:
            parent[x] = y
    return [find(c) for c in range(n_cities)]
