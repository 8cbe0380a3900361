-- Rooms that remember. prosodyConfig.ts makes every room persistent (stored in SQLite), so that a
-- room's owner, lock and bans survive its last person leaving, reconnects and restarts. Prosody
-- needs two things more for that:
--  * a new room is stored at once: Prosody first saves a room on a configuration or affiliation
--    change, so a crash before then would forget who owns it (and the next joiner would own it);
--  * a room nobody has been in for `parley_room_idle_expiry` seconds is destroyed (with its bans);
--  * a room restored from storage after a restart keeps only occupants whose sessions are still
--    here: Prosody saves a room's occupants with it when it stops, and a session parked for stream
--    resumption at that moment is saved too, so a restart would bring back someone who is gone
--    (their room never empties, and they count against its limit). A room Prosody swapped out of
--    memory (`muc_room_cache_size`) and restores in the same run keeps them all: a session that
--    ended meanwhile has its leave on the way, which is what restores the room, and only that
--    leave tells the others and fires muc-occupant-left.

local os_time = os.time;
local jid_node = require "util.jid".node;
local full_sessions = prosody.full_sessions;

local idle_expiry = module:get_option_number("parley_room_idle_expiry", 30 * 86400);
-- Often enough that a room goes soon after its time; never more than once a second.
local sweep_interval = math.max(1, math.min(idle_expiry, 60));

-- This Prosody run's id, saved in every room's data (a room in memory always carries it), so that a
-- restored room tells a swap within this run from a restart. Shared data outlives a module reload.
local this_run = module:shared("run");
this_run.id = this_run.id or require "util.uuid".generate();

local muc = module:depends("muc");
local stored_rooms = module:open_store("persistent"); -- mod_muc's list of stored rooms: { [room jid] = true }
local room_configs = module:open_store("config"); -- mod_muc's stored rooms by node

-- Stored rooms not in memory are looked up a slice per sweep (one SQLite get each): their list is
-- read once per pass over them, and a sweep takes the next `parley_room_sweep_slice` of it. With
-- 100,000 stored rooms, looking at all of them every sweep stalled Prosody for 7.5 s.
local sweep_slice = module:get_option_number("parley_room_sweep_slice", 1000);
local pass, pass_next = {}, 1; -- the stored rooms' jids of this pass, and where the next sweep starts

-- For mod_parley_stats: sweeps since start, and the most stored rooms one of them looked at.
sweeps, most_stored_rooms_per_sweep = 0, 0;

-- Stored rooms with no record of when they emptied (Prosody was killed while people were in them):
-- they count as empty from when a sweep first saw them.
local first_seen_empty = {};

local function mark_empty(room)
	room._data.parley_empty_since = os_time();
	room:save(true);
end

module:hook("muc-room-created", function(event)
	event.room._data.parley_run = this_run.id;
	event.room:save(true);
end);

module:hook("muc-room-restored", function(event)
	local room = event.room;
	local saved_by_this_run = room._data.parley_run == this_run.id;
	room._data.parley_run = this_run.id;
	if saved_by_this_run then return; end
	local had_occupants = room:has_occupant();
	local dropped = {};
	for nick, occupant in room:each_occupant() do
		for real_jid in occupant:each_session() do
			if not full_sessions[real_jid] then dropped[#dropped + 1] = { nick = nick, real_jid = real_jid }; end
		end
	end
	for _, gone in ipairs(dropped) do
		local occupant = room:get_occupant_by_nick(gone.nick);
		if occupant then
			module:log("info", "%s was restored with %s in it, whose session is gone: dropped", room.jid, gone.real_jid);
			occupant:remove_session(gone.real_jid);
			room:save_occupant(occupant);
		end
	end
	if had_occupants and not room:has_occupant() then
		mark_empty(room);
	end
end);

module:hook("muc-occupant-joined", function(event)
	local room = event.room;
	if room._data.parley_empty_since then
		room._data.parley_empty_since = nil;
		room:save(true);
	end
end);

module:hook("muc-occupant-left", function(event)
	local room = event.room;
	if not room.destroying and not room:has_occupant() then
		mark_empty(room);
	end
end);

local function has_expired(empty_since, now)
	return empty_since ~= nil and now - empty_since >= idle_expiry;
end

-- Rooms to destroy now: live ones from memory, stored ones from their stored data (restored only
-- when they are due, and destroyed only if no one is in them after all).
local function expired_rooms(now)
	local due, live = {}, {};
	for room in muc.live_rooms() do
		live[room.jid] = true;
		if not room:has_occupant() then
			if room._data.parley_empty_since == nil then
				mark_empty(room);
			elseif has_expired(room._data.parley_empty_since, now) then
				due[#due + 1] = room;
			end
		end
	end
	if pass_next > #pass then
		pass, pass_next = {}, 1;
		for room_jid in pairs(stored_rooms:get(nil) or {}) do pass[#pass + 1] = room_jid; end
	end
	local looked_at = 0;
	while pass_next <= #pass and looked_at < sweep_slice do
		local room_jid = pass[pass_next];
		pass_next = pass_next + 1;
		looked_at = looked_at + 1;
		if not live[room_jid] then
			local stored = room_configs:get(jid_node(room_jid));
			local empty_since = stored and stored._data and stored._data.parley_empty_since or first_seen_empty[room_jid];
			if empty_since == nil then
				first_seen_empty[room_jid] = now;
			elseif has_expired(empty_since, now) then
				local room = muc.get_room_from_jid(room_jid);
				if room and not room:has_occupant() then
					due[#due + 1] = room;
				end
			end
		end
	end
	sweeps = sweeps + 1;
	most_stored_rooms_per_sweep = math.max(most_stored_rooms_per_sweep, looked_at);
	return due;
end

module:add_timer(sweep_interval, function()
	for _, room in ipairs(expired_rooms(os_time())) do
		module:log("info", "Destroying %s: nobody has been in it for %d s", room.jid, idle_expiry);
		first_seen_empty[room.jid] = nil;
		room:destroy(nil, "The room expired unused");
	end
	return sweep_interval;
end);
