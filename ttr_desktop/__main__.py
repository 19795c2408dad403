"""Start the game: ``python -m ttr_desktop`` or the ``ttr-desktop`` command."""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys

log = logging.getLogger("ttr_desktop")


def parse_size(text: str) -> tuple[int, int]:
    """'1600x900' -> (1600, 900)."""
    match = re.fullmatch(r"\s*(\d{3,5})\s*[xX×]\s*(\d{3,5})\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size like 1600x900")
    return int(match.group(1)), int(match.group(2))


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="ttr-desktop", description="Ticket to Ride for your desktop.")
    parser.add_argument("--size", type=parse_size, metavar="WxH",
                        help="window size, e.g. 1600x900 (at least 1280x720)")
    parser.add_argument("--selftest", action="store_true",
                        help="run a short headless check of the game and exit")
    # For the benchmarks: draw the first title-screen frame, say so, and exit.
    parser.add_argument("--menu-probe", action="store_true", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the options, open the window on the title screen and play until it closes."""
    args = build_parser().parse_args(argv)
    if args.selftest:
        from ttr_desktop import selftest
        return selftest.run()

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from ttr_desktop.paths import user_paths
    from ttr_desktop.ui.app import App, configure_logging

    paths = user_paths()
    log_file = configure_logging(paths)
    log.info("starting ttr-desktop (size=%s)", args.size)
    app = None
    try:
        from ttr_desktop.ui.scenes.menu import MenuScene
        from ttr_desktop.ui.scenes.settings import apply_window

        app = App(size=args.size, paths=paths)
        if app.settings.fullscreen and args.size is None:
            apply_window(app, app.settings)
        app.push(MenuScene(app))
        if args.menu_probe:
            app.step(1 / 60)
            print("menu-ready", flush=True)
            app.shutdown()
            return 0
        app.run()
    except Exception as exc:
        log.exception("ttr-desktop stopped because of an unexpected error")
        if app is not None:
            try:  # let the scenes finish (a pending autosave is written)
                app.shutdown()
            except Exception:
                log.exception("closing the window after the error failed too")
        report_crash(exc, log_file)
        return 1
    log.info("ttr-desktop closed normally")
    return 0


def report_crash(exc: BaseException, log_file) -> None:
    """Tell the player what happened (a dialog, and the console), instead of vanishing."""
    where = f"The details are in {log_file}." if log_file else ""
    message = (f"ttr-desktop hit an unexpected error and has to close:\n\n"
               f"{type(exc).__name__}: {exc}\n\n"
               "Your game was autosaved after the last complete turn: choose Continue on the "
               f"title screen to go on. {where}")
    print(message, file=sys.stderr)
    try:
        import pygame
        pygame.display.message_box("ttr-desktop — error", message, message_type="error",
                                   buttons=("Close",))
    except Exception:  # no display at all: the console message has to do
        log.info("no dialog could be shown")


if __name__ == "__main__":
    sys.exit(main())
