# packages: psycopg[binary]>=3.1
# env: LOAMS_PG_URL, LOAMS_API_KEY
# doc: guides/engines/postgres-wire.md
import os

import psycopg

# .env.loams (from `loams env export`) holds the stack's URLs and key; variables already set win.
if os.path.exists(".env.loams"):
    with open(".env.loams") as env:
        for name, _, value in (line.strip().partition("=") for line in env):
            if name and not name.startswith("#"):
                os.environ.setdefault(name, value.strip("'\""))

conn = psycopg.connect(os.environ["LOAMS_PG_URL"], password=os.environ["LOAMS_API_KEY"])

with conn:
    conn.execute("INSERT INTO kb (pk, body) VALUES (%s, %s)", ("3", "returns are accepted for 30 days"))
