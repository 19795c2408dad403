"""Colour-blind symbols: one simple shape per card colour, drawn with primitives."""

from __future__ import annotations

import math

import pygame

SHAPES = {
    "red": "circle", "blue": "square", "green": "triangle", "yellow": "star",
    "black": "diamond", "white": "ring", "orange": "plus", "pink": "heart",
    "locomotive": "wheel", "gray": "none",
    "locomotive_plus4": "wheel_plus", "passenger": "person", "newspaper": "paper",
}


def draw_symbol(surface: pygame.Surface, name: str, center: tuple[float, float], size: float,
                color=(255, 255, 255), outline=(0, 0, 0)) -> None:
    """Draw the symbol of card colour ``name`` centred at ``center`` (``size`` = radius)."""
    shape = SHAPES.get(name, "none")
    cx, cy = center
    r = max(2.0, size)
    if shape == "none":
        return
    pts: list[tuple[float, float]] | None = None
    if shape == "circle":
        pygame.draw.circle(surface, color, (cx, cy), r)
        pygame.draw.circle(surface, outline, (cx, cy), r, 1)
        return
    if shape == "ring":
        pygame.draw.circle(surface, outline, (cx, cy), r)
        pygame.draw.circle(surface, color, (cx, cy), max(1, r - 2.5))
        return
    if shape in ("wheel", "wheel_plus"):
        pygame.draw.circle(surface, color, (cx, cy), r)
        pygame.draw.circle(surface, outline, (cx, cy), r, 1)
        for k in range(4):
            a = k * math.pi / 4
            dx, dy = math.cos(a) * r, math.sin(a) * r
            pygame.draw.line(surface, outline, (cx - dx, cy - dy), (cx + dx, cy + dy), 1)
        if shape == "wheel_plus":          # a plus badge on the wheel's shoulder
            px, py, t = cx + r * 0.8, cy - r * 0.8, max(2.0, r * 0.5)
            pygame.draw.circle(surface, outline, (px, py), t + 1)
            pygame.draw.line(surface, color, (px - t * 0.7, py), (px + t * 0.7, py), 2)
            pygame.draw.line(surface, color, (px, py - t * 0.7), (px, py + t * 0.7), 2)
        return
    if shape == "person":
        pygame.draw.circle(surface, outline, (cx, cy - r * 0.55), r * 0.34 + 1)
        pygame.draw.circle(surface, color, (cx, cy - r * 0.55), r * 0.34)
        body = [(cx - r * 0.55, cy + r), (cx - r * 0.45, cy - r * 0.05),
                (cx + r * 0.45, cy - r * 0.05), (cx + r * 0.55, cy + r)]
        pygame.draw.polygon(surface, color, body)
        pygame.draw.polygon(surface, outline, body, 1)
        return
    if shape == "paper":
        sheet = pygame.Rect(0, 0, round(r * 1.5), round(r * 1.9))
        sheet.center = (round(cx), round(cy))
        pygame.draw.rect(surface, color, sheet)
        pygame.draw.rect(surface, outline, sheet, 1)
        head = sheet.inflate(-max(2, sheet.width // 4), 0)
        head.height = max(2, sheet.height // 5)
        head.top = sheet.top + max(1, sheet.height // 8)
        pygame.draw.rect(surface, outline, head)
        for k in range(2, 5):
            y = sheet.top + sheet.height * k / 6 + 1
            pygame.draw.line(surface, outline, (head.left, y), (head.right, y), 1)
        return
    if shape == "square":
        s = r * 0.85
        pts = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    elif shape == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)]
    elif shape == "diamond":
        pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    elif shape == "star":
        pts = []
        for k in range(10):
            rad = r if k % 2 == 0 else r * 0.45
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((cx + math.cos(a) * rad, cy + math.sin(a) * rad))
    elif shape == "plus":
        t = r * 0.38
        pts = [(cx - t, cy - r), (cx + t, cy - r), (cx + t, cy - t), (cx + r, cy - t),
               (cx + r, cy + t), (cx + t, cy + t), (cx + t, cy + r), (cx - t, cy + r),
               (cx - t, cy + t), (cx - r, cy + t), (cx - r, cy - t), (cx - t, cy - t)]
    elif shape == "heart":
        pts = []
        for k in range(24):
            t = k / 24 * 2 * math.pi
            x = 16 * math.sin(t) ** 3
            y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
            pts.append((cx + x / 17 * r, cy + y / 17 * r))
    if pts:
        pygame.draw.polygon(surface, color, pts)
        pygame.draw.polygon(surface, outline, pts, 1)
