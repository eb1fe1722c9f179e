"""The "Matcher" section of report.py: AASAMatcher against naive
`NSRegularExpression` translations, realistic and adversarial."""


def matcher_section(matcher):
    """The section's lines; none when the matcher part did not run."""
    lines = []
    if matcher:
        real = matcher["realistic"]
        lines.append("## Matcher\n")
        lines.append(
            f"A {real['fileBytes']:,}-byte file with {real['rules']} rules (excludes, query dictionaries, fragments, "
            "`substitutionVariables` with wildcard values, `$(digit)`, `$(region)`, file and entry `defaults`), "
            f"{real['urls']:,} URLs (decisions: "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(real["decisions"].items()))
            + f"), median of {real['passes']} pass(es). The naive side: each pattern as an anchored "
            "`NSRegularExpression` (`*`→`.*`, `?`→`.`, the rest escaped, variables as alternations), first match wins; "
            "URLs pre-split for it, pre-parsed (`AASAURL`) for ours.\n"
        )
        lines.append("| matcher | URLs/s | compile ms |")
        lines.append("|---|---|---|")
        lines.append(f"| AASAMatcher | {real['oursURLsPerSecond']:,.0f} | {real['oursCompileMs']} |")
        lines.append(f"| naive regex | {real['regexURLsPerSecond']:,.0f} | {real['regexCompileMs']} |")
        lines.append(f"| **ratio** | **{real['ratio']:.2f}×** | |")
        lines.append("")
        lines.append(
            f"Decisions agree on {real['agreementPercent']}% of these URLs"
            + (
                " (this corpus avoids the cases where they differ: the naive translation has no path "
                "normalisation and no case folding beyond ASCII).\n"
                if real["agreementPercent"] >= 100
                else " (the naive translation has no path normalisation and no Unicode case folding).\n"
            )
        )
        adv = matcher["adversarial"]
        lines.append(
            f"Adversarial: `{adv['pattern']}` against `/aaa…a` (no `b`). The regex runs in a child process "
            f"killed after {adv['capSeconds']:.0f} s.\n"
        )
        lines.append("| input length | AASAMatcher per evaluate | naive regex |")
        lines.append("|---|---|---|")
        ours = {row["length"]: row for row in adv["ours"]}
        theirs = {row["length"]: row for row in adv["regex"]}
        for length in sorted(set(ours) | set(theirs)):
            mine = ours.get(length)
            other = theirs.get(length)
            mine_text = f"{mine['seconds'] * 1e6:,.1f} µs" if mine else "—"
            if not other:
                other_text = "—"
            elif other["capped"]:
                other_text = f"> {adv['capSeconds']:.0f} s"
            else:
                other_text = f"{other['seconds'] * 1e6:,.1f} µs"
            lines.append(f"| {length:,} | {mine_text} | {other_text} |")
        lines.append("")
        if adv["ours"]:
            largest = max(adv["ours"], key=lambda row: row["length"])
            smallest = min(adv["ours"], key=lambda row: row["length"])
            growth = (largest["seconds"] / smallest["seconds"]) / (largest["length"] / smallest["length"])
            lines.append(
                f"AASAMatcher: {largest['seconds'] / largest['length'] * 1e9:.0f} ns per input character at "
                f"{largest['length']:,}; time grows {growth:.2f}× as fast as the input (1.00 = linear). "
                "The regex blows up on short inputs (see the first rows), then stops growing: ICU gives "
                "up once its backtracking stack is full (a profile shows 75 % of the time in "
                "`icu::RegexMatcher::StateSave`) and `NSRegularExpression` reports *no match*, which is not an "
                "answer, after most of a second of CPU per URL."
                + (" No case reached the time cap." if not any(r["capped"] for r in adv["regex"]) else "")
                + "\n"
            )
    return lines
