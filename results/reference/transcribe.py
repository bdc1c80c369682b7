#!/usr/bin/env python3
"""transcribe.py - the two seed reports as cryptobench-csv-1 rows
(docs/csv.md), so a host's results can be set beside them:

  geli-seed.csv    seed 000: FreeBSD geli, dd of 200 MiB, bs=1m, -s 4096
  tcrypt-seed.csv  seed 001: Linux tcrypt, essiv(cbc(aes),sha256) and
                   cbc(aes) on a 2 GHz Cortex-A57 (AMD Seattle)

Only what the reports state is filled in; what they do not state is an
empty field (or -1 for the CPUID numbers), never a guess.  The exceptions,
flagged in README.md: geli's "-e aes" is taken as AES-XTS (what it means
since FreeBSD 8.2), and the tcrypt rows' cycles are the stated 2 GHz clock.

usage: transcribe.py SEEDS_DIR OUT_DIR   (SEEDS_DIR holds the seed .txt files)
"""
import csv
import re
import sys

COLUMNS = ("schema tool_version host cpu_model kernel backend backend_version "
           "driver alg key_bits block_bytes direction ops_per_sec "
           "bytes_per_sec ns_per_byte cycles_per_byte ghz reps rel_spread "
           "timestamp tool status error iv_mode sector_bytes threads auth "
           "overhead_ns slope_ns_per_byte seconds bytes_total cpu_vendor "
           "cpu_family cpu_model_no cpu_stepping cpu_flags backend_details "
           "compiler cflags governor boost clock").split()

BASE = {c: "" for c in COLUMNS}
BASE.update(schema="cryptobench-csv-1", status="ok", cpu_family="-1",
            cpu_model_no="-1", cpu_stepping="-1")

# geli -e / -a spellings -> canonical, key bits per -l bit, FreeBSD's name
GELI_E = {"aes": ("xts(aes)", 2, "AES-XTS"),
          "blowfish": ("cbc(blowfish)", 1, "Blowfish-CBC"),
          "camellia": ("cbc(camellia)", 1, "CAMELLIA-CBC"),
          "3des": ("cbc(des3_ede)", 1, "3DES-CBC"),
          "null": ("ecb(cipher_null)", 0, "NULL")}
GELI_DEFAULT_L = {"aes": 128, "blowfish": 128, "camellia": 128, "3des": 192,
                  "null": 0}
GELI_A = {"hmac/md5": ("hmac(md5)", "HMAC/MD5"),
          "hmac/sha1": ("hmac(sha1)", "HMAC/SHA1"),
          "hmac/ripemd160": ("hmac(rmd160)", "HMAC/RIPEMD160"),
          "hmac/sha256": ("hmac(sha256)", "HMAC/SHA256"),
          "hmac/sha384": ("hmac(sha384)", "HMAC/SHA384"),
          "hmac/sha512": ("hmac(sha512)", "HMAC/SHA512")}

DD_RE = re.compile(r"^(\d+) bytes transferred in ([0-9.]+) secs \((\d+) bytes/sec\)$")


def geli_rows(text):
    host = dict(BASE)
    host.update(host="unknown (geli report by Cyrus Rahman)",
                cpu_model="unknown", kernel="FreeBSD (release not stated)",
                backend="freebsd-geli", tool="dd", block_bytes="1048576",
                direction="encrypt", reps="1",
                backend_details="seed 000 (shared/seeds/000_ead470b1fc41a537.txt); "
                "GEOM_ELI through crypto(9), written to gmirror mirror/gm0")
    rows, cfg = [], None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("dd if=/dev/zero of=/dev/mirror/gm0 "):
            if cfg is None:
                cfg = "baseline"
        elif line.startswith("geli init"):
            cfg = line.split()
        m = DD_RE.match(line)
        if not m:
            continue
        nbytes, secs, bps = int(m.group(1)), float(m.group(2)), int(m.group(3))
        r = dict(host)
        r.update(seconds="%.6f" % secs, bytes_total=str(nbytes),
                 bytes_per_sec=str(bps),
                 ops_per_sec="%.2f" % (nbytes / 1048576 / secs),
                 ns_per_byte="%.6f" % (1e9 * secs / nbytes))
        if cfg == "baseline":
            r.update(alg="none", key_bits="0", driver="none", iv_mode="none",
                     sector_bytes="0")
        else:
            a = cfg
            e = a[a.index("-e") + 1]
            l = int(a[a.index("-l") + 1]) if "-l" in a else GELI_DEFAULT_L[e]
            auth = a[a.index("-a") + 1] if "-a" in a else None
            alg, mult, name = GELI_E[e]
            r.update(alg=alg, key_bits=str(l * mult),
                     sector_bytes=a[a.index("-s") + 1],
                     iv_mode="none" if e == "null" else "per-sector",
                     driver=name + ("+" + GELI_A[auth][1] if auth else ""),
                     auth=GELI_A[auth][0] if auth else "")
        rows.append(r)
    return rows


TC_HEAD = re.compile(r"testing speed of (async|sync) (\S+) \((\S+)\) (encryption|decryption)")
TC_ROW = re.compile(r"tcrypt: test (\d+) \((\d+) bit key, (\d+) byte blocks\): (\d+) ops/s \( ?(\d+) bytes\)")
CANON = {"essiv(cbc(aes),aes,sha256)": "essiv(cbc(aes),sha256)",
         "cbc(aes)": "cbc(aes)"}


def tcrypt_rows(text):
    host = dict(BASE)
    host.update(host="unknown (AMD Seattle board, ESSIV patch series v7 by Ard Biesheuvel)",
                cpu_model="ARM Cortex-A57 (AMD Opteron A1100 \"Seattle\"), 2 GHz",
                cpu_vendor="ARM",
                kernel="Linux arm64, ardb essiv-v6 branch (July 2019)",
                backend="linux-kernel", tool="speed", iv_mode="per-request",
                sector_bytes="0", threads="1", reps="1", ghz="2.0000",
                timestamp="2019-07-02T16:48:08Z",
                backend_details="seed 001 (shared/seeds/001_744e4d62d1496a31.txt): "
                "tcrypt speed test, 1 s per test; timestamp is the mail's date "
                "(measured before it); ghz is the stated clock, not measured")
    # The archive flattened the report onto one line: split it at each header.
    rows = []
    parts = TC_HEAD.split(text)
    # parts: [pre, async, alg, driver, dir, body, async, alg, ...]
    for i in range(1, len(parts) - 4, 5):
        alg, driver, direction, body = parts[i + 1], parts[i + 2], parts[i + 3], parts[i + 4]
        for m in TC_ROW.finditer(body):
            bits, n, ops, nbytes = int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
            if nbytes != ops * n:
                raise SystemExit("tcrypt row %s: bytes != ops * size" % m.group(0))
            ns = 1e9 / nbytes
            r = dict(host)
            r.update(driver=driver, alg=CANON[alg], key_bits=str(bits),
                     block_bytes=str(n),
                     direction="encrypt" if direction == "encryption" else "decrypt",
                     ops_per_sec="%d.00" % ops, bytes_per_sec=str(nbytes),
                     ns_per_byte="%.6f" % ns, cycles_per_byte="%.4f" % (ns * 2.0),
                     seconds="1.000000", bytes_total=str(nbytes))
            rows.append(r)
    return rows


# cryptsetup benchmark: the kernel's ciphers through AF_ALG, requests of
# 64 KiB with one IV each (lib/crypto_backend/cipher_check.c); PBKDF2's
# iterations per second for a 32-byte key.  Whirlpool, which cryptobench
# lacks, is left out.
CS_HOST = dict(BASE, host="Asus Zenbook (jo-so.de, April 2017)",
               cpu_model="Intel(R) Core(TM) i7-4720HQ CPU @ 2.60GHz",
               kernel="Linux (release not stated)", backend="kernel",
               cpu_vendor="GenuineIntel", cpu_family="6", cpu_model_no="60",
               tool="speed", reps="1", block_bytes="65536",
               backend_details="cryptsetup benchmark 1.7 (results/reference/"
               "cryptsetup-i7-4720hq.txt)")
CS_KDF = {"sha1": "pbkdf2(hmac(sha1))", "sha256": "pbkdf2(hmac(sha256))",
          "sha512": "pbkdf2(hmac(sha512))", "ripemd160": "pbkdf2(hmac(rmd160))"}


def cs_row(alg, bits, direction, per_sec, driver):
    ops = per_sec / 65536
    return dict(CS_HOST, driver=driver, alg=alg, key_bits=str(bits),
                direction=direction, ops_per_sec="%.2f" % ops,
                bytes_per_sec="%.0f" % per_sec,
                ns_per_byte="%.6f" % (1e9 / per_sec),
                iv_mode="none" if direction == "derive" else "per-request",
                sector_bytes="0", threads="1")


def cryptsetup_rows(text):
    rows = []
    for line in text.splitlines():
        m = re.match(r"PBKDF2-(\w+) (\d+) iterations per second", line)
        if m and m.group(1) in CS_KDF:
            rows.append(cs_row(CS_KDF[m.group(1)], 0, "derive",
                               float(m.group(2)), "pbkdf2-" + m.group(1)))
        m = re.match(r"(\w+)-(cbc|xts) (\d+)b ([\d,]+) MiB/s ([\d,]+) MiB/s",
                     line)
        if m:
            alg = "%s(%s)" % (m.group(2), m.group(1))
            for d, v in (("encrypt", m.group(4)), ("decrypt", m.group(5))):
                rows.append(cs_row(alg, int(m.group(3)), d,
                                   float(v.replace(",", ".")) * 1048576,
                                   "%s-%s" % (m.group(1), m.group(2))))
    return rows


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\r\n")
        w.writeheader()
        w.writerows(rows)


def main():
    seeds, out = sys.argv[1], sys.argv[2]
    g = geli_rows(open(seeds + "/000_ead470b1fc41a537.txt").read())
    t = tcrypt_rows(open(seeds + "/001_744e4d62d1496a31.txt").read())
    assert len(g) == 17, len(g)
    assert len(t) == 108, len(t)
    write(out + "/geli-seed.csv", g)
    write(out + "/tcrypt-seed.csv", t)
    c = cryptsetup_rows(open(out + "/cryptsetup-i7-4720hq.txt").read())
    assert len(c) == 28, len(c)
    write(out + "/cryptsetup-i7-4720hq.csv", c)


if __name__ == "__main__":
    main()
