"""The Lua scripts of an open table (`app.people.tables`): each move of a table is one script
on its one hash, so that it is atomic on a Redis Cluster as on one Redis.

Every script but the creation's reads the table whole first (`PRELUDE`), then answers a list
whose first item is `ok` (or another word of success) or the code of its refusal.
"""

from __future__ import annotations

PRELUDE = """
local raw = redis.call('HGETALL', KEYS[1])
local h = {}
for i = 1, #raw, 2 do h[raw[i]] = raw[i + 1] end
local n = tonumber(h['n'] or '0')
local function gate(now)
  local s = h['status']
  if not s then return 'unknown_table' end
  if s == 'started' or s == 'starting' then return 'table_started' end
  if s == 'closed' or tonumber(now) >= tonumber(h['closes']) then return 'table_closed' end
  return nil
end
local function full()
  for i = 0, n - 1 do
    local t = h['t:' .. i]
    if t ~= 'ai' and not h['p:' .. i] and not h['d:' .. i] then return 0 end
  end
  return 1
end
local function close(keep)
  redis.call('HSET', KEYS[1], 'status', 'closed')
  redis.call('PEXPIRE', KEYS[1], keep)
end
"""

# KEYS: table. ARGV: keep ms, field, value, ... Replies 1 when made, 0 when the id is taken.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""

# ARGV: player, name, seat (-1: any), now. Replies {'ok', seat, full} or {code[, seat]}.
JOIN = (
    PRELUDE
    + """
local err = gate(ARGV[4])
if err then return {err} end
local key, mine = ARGV[1], -1
for i = 0, n - 1 do
  if h['p:' .. i] == key then return {'already_seated', i} end
  if h['t:' .. i] == 'player' and h['r:' .. i] == key and not h['d:' .. i] then mine = i end
end
local seat = tonumber(ARGV[3])
if seat >= 0 then
  if seat >= n then return {'no_such_seat'} end
  if mine >= 0 and seat ~= mine then return {'already_seated', mine} end
  local t = h['t:' .. seat]
  if t == 'ai' or h['p:' .. seat] or h['d:' .. seat] then return {'seat_taken'} end
  if t == 'player' and h['r:' .. seat] ~= key then return {'seat_reserved'} end
elseif mine >= 0 then
  seat = mine
else
  for i = 0, n - 1 do
    if h['t:' .. i] == 'open' and not h['p:' .. i] then
      seat = i
      break
    end
  end
  if seat < 0 then return {'table_full'} end
end
redis.call('HSET', KEYS[1], 'p:' .. seat, key, 'pn:' .. seat, ARGV[2])
h['p:' .. seat] = key
return {'ok', seat, full()}
"""
)

# ARGV: player, now, keep ms. Replies {'ok', seat}, {'closed'} (the creator left) or {code}.
LEAVE = (
    PRELUDE
    + """
local err = gate(ARGV[2])
if err then return {err} end
if h['creator'] == ARGV[1] then
  close(ARGV[3])
  return {'closed'}
end
for i = 0, n - 1 do
  if h['p:' .. i] == ARGV[1] then
    redis.call('HDEL', KEYS[1], 'p:' .. i, 'pn:' .. i)
    return {'ok', i}
  end
end
return {'not_at_table'}
"""
)

# ARGV: player, now, keep ms. Replies {'ok', seat, full}, {'closed'} or {code}.
DECLINE = (
    PRELUDE
    + """
local err = gate(ARGV[2])
if err then return {err} end
for i = 0, n - 1 do
  if h['t:' .. i] == 'player' and h['r:' .. i] == ARGV[1] and not h['d:' .. i] then
    if h['creator'] == ARGV[1] then
      close(ARGV[3])
      return {'closed'}
    end
    redis.call('HDEL', KEYS[1], 'p:' .. i, 'pn:' .. i)
    redis.call('HSET', KEYS[1], 'd:' .. i, '1')
    h['p:' .. i], h['d:' .. i] = nil, '1'
    return {'ok', i, full()}
  end
end
return {'not_reserved'}
"""
)

# ARGV: asker ('' for the table itself, full), now, '1' when it must be full. Freezes the
# seats (`starting`): replies {'starting'}, {'started', game id} or {code[, seated]}.
FREEZE = (
    PRELUDE
    + """
local s = h['status']
if not s then return {'unknown_table'} end
if s == 'started' then return {'started', h['game_id']} end
if s == 'closed' then return {'table_closed'} end
if ARGV[1] ~= '' and ARGV[1] ~= h['creator'] then return {'not_creator'} end
if s == 'forming' then
  if tonumber(ARGV[2]) >= tonumber(h['closes']) then return {'table_closed'} end
  local seated = 0
  for i = 0, n - 1 do
    if h['t:' .. i] == 'ai' or h['p:' .. i] then seated = seated + 1 end
  end
  if seated < tonumber(h['min']) then return {'too_few_players', seated} end
  if ARGV[3] == '1' and full() == 0 then return {'not_full'} end
  redis.call('HSET', KEYS[1], 'status', 'starting')
end
return {'starting'}
"""
)

# ARGV: game id, keep ms. A starting table's game is made: it is started (1), else 0.
FINISH = """
if redis.call('HGET', KEYS[1], 'status') ~= 'starting' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'started', 'game_id', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# The game of a starting table could not be made (its rules refused the seats): forming again.
THAW = """
if redis.call('HGET', KEYS[1], 'status') ~= 'starting' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'forming')
return 1
"""
