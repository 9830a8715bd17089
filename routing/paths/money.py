"""Money as people read it: Indian digit grouping for INR (Rs 1,23,45,678.00 / ₹1,23,45,678.00),
Western grouping for other currencies. Decimal arithmetic, so 0.1 + 0.2 never shows 0.30000000004.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

INR_SYMBOLS = ("Rs", "₹", "INR")
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "IDR": "Rp "}


def _to_decimal(amount) -> Decimal:
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        raise ValueError(f"not an amount: {amount!r}") from None
    if not value.is_finite():
        raise ValueError(f"not a finite amount: {amount!r}")
    return value


def group_indian(integer_digits: str) -> str:
    """'12345678' -> '1,23,45,678': the last three digits, then groups of two (lakh, crore)."""
    if len(integer_digits) <= 3:
        return integer_digits
    head, tail = integer_digits[:-3], integer_digits[-3:]
    pairs = []
    while len(head) > 2:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(([head] if head else []) + pairs + [tail])


def group_western(integer_digits: str) -> str:
    return f"{int(integer_digits):,}"


def _split(amount, decimals: int) -> tuple[bool, str, str]:
    quantum = Decimal(1).scaleb(-decimals)
    value = _to_decimal(amount).quantize(quantum, rounding=ROUND_HALF_UP)
    negative = value < 0
    text = f"{abs(value):.{decimals}f}"
    integer, _, fraction = text.partition(".")
    return negative, integer, fraction


def format_inr(amount, *, symbol: str = "Rs", decimals: int = 2) -> str:
    """format_inr(12345678) -> 'Rs 1,23,45,678.00'; symbol='₹' -> '₹1,23,45,678.00'; negatives '-Rs 500.00'."""
    negative, integer, fraction = _split(amount, decimals)
    number = group_indian(integer) + (f".{fraction}" if decimals > 0 else "")
    prefix = symbol if symbol == "₹" else f"{symbol} "
    return ("-" if negative else "") + prefix + number


def format_money(amount, currency: str, *, decimals: int = 2) -> str:
    """An amount in a currency: INR Indian-grouped, others Western-grouped with their symbol."""
    code = (currency or "").upper()
    if code == "INR":
        return format_inr(amount, decimals=decimals)
    negative, integer, fraction = _split(amount, decimals)
    number = group_western(integer) + (f".{fraction}" if decimals > 0 else "")
    symbol = _SYMBOLS.get(code, f"{code} " if code else "")
    return ("-" if negative else "") + symbol + number
