"""The Legacy campaign's screens live with the family: ``ui.families.legacy_campaign_chart``. This
name stays for code that imports it (it is the same module, so patching either patches
both)."""

import sys

from ttr_desktop.ui.families import legacy_campaign_chart as _moved

sys.modules[__name__] = _moved
