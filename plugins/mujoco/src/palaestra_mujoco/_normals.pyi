from typing import Any

standard_normal: Any
