"""The Lua scripts of an open table (`app.people.tables`): one write each, on the table's one
hash, so that it is atomic on a Redis Cluster as on one Redis. They decide nothing: every rule
of a table is in `app.people.forming`, and these only write what it decided, if nobody wrote
the table meanwhile.
"""

from __future__ import annotations

# KEYS: table. ARGV: keep ms, field, value, ... Replies 1 when made, 0 when the id is taken.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""

# KEYS: table. ARGV: the version read (`v`, '0' for a table written before versions), keep ms
# ('' to leave the expiry as it is), the count d of fields to delete, those d fields, then
# field, value, ... to set. Writes them and adds one to `v` when the table is still at that
# version: replies 1; else (written meanwhile, or gone) 0, and writes nothing.
WRITE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
local drop = tonumber(ARGV[3])
for i = 4, 3 + drop do redis.call('HDEL', KEYS[1], ARGV[i]) end
if #ARGV >= 4 + drop then redis.call('HSET', KEYS[1], unpack(ARGV, 4 + drop)) end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1)
if ARGV[2] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
"""

# KEYS: an index (a sorted set). ARGV: member, score. Removes the member only if its score is
# still that one (nobody noted it again meanwhile): replies 1, else 0.
FORGET = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
return redis.call('ZREM', KEYS[1], ARGV[1])
"""
