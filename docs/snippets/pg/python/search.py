# packages: psycopg[binary]>=3.1
# env: LOAMS_PG_URL, LOAMS_API_KEY
# doc: guides/engines/postgres-wire.md
import os

import psycopg

conn = psycopg.connect(os.environ["LOAMS_PG_URL"], password=os.environ["LOAMS_API_KEY"])

rows = conn.execute("SELECT pk, score FROM text_search('kb', %s, 'body', 10)", ("refund",)).fetchall()
for pk, score in rows:
    print(pk, score)
