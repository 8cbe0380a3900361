-- GET /parley-stats: {"clientSessions": n, "rooms": {"<room jid>": {"occupants": n}},
-- "rejectedPayloads": n} for tests and operators, answered only to loopback peers. clientSessions counts authenticated client sessions
-- (websocket included, stream-management hibernated ones too) on every host of this server; rooms
-- lists the live rooms of every MUC component; rejectedPayloads counts the stanzas
-- mod_muc_parley_payload_guard bounced; roomSweeps, the idle-room sweep's work (Prosody only). The response header X-Parley-Instance carries
-- `parley_instance_id`, so the launcher knows that the answer comes from the server it started.

local json = require "util.json";

local instance_id = module:get_option_string("parley_instance_id", "");

local function is_loopback(ip)
	return ip ~= nil and (ip == "::1" or ip:match("^127%.") ~= nil);
end

local function client_session_count()
	local count = 0;
	for _, session in pairs(prosody.full_sessions) do
		if session.type == "c2s" then
			count = count + 1;
		end
	end
	return count;
end

local function live_room_occupants()
	local rooms = {};
	for _, host in pairs(prosody.hosts) do
		local muc = host.modules.muc;
		if muc and muc.live_rooms then
			for room in muc.live_rooms() do
				local occupants = 0;
				for _ in room:each_occupant() do
					occupants = occupants + 1;
				end
				rooms[room.jid] = { occupants = occupants };
			end
		end
	end
	return rooms;
end

-- The idle-room sweep's work (mod_muc_parley_room_persistence): sweeps since start, and the most
-- stored rooms one sweep looked at; nil when no MUC component runs the module.
local function room_sweeps()
	for _, host in pairs(prosody.hosts) do
		local persistence = host.modules.muc_parley_room_persistence;
		if persistence and persistence.sweeps then
			return { sweeps = persistence.sweeps; mostStoredRoomsPerSweep = persistence.most_stored_rooms_per_sweep };
		end
	end
end

local function rejected_payloads()
	local count = 0;
	for _, host in pairs(prosody.hosts) do
		local guard = host.modules.muc_parley_payload_guard;
		if guard then
			count = count + guard.rejected_payloads;
		end
	end
	return count;
end

module:depends("http");
module:provides("http", {
	default_path = "/parley-stats";
	route = {
		GET = function(event)
			local request, response = event.request, event.response;
			-- request.ip may come from X-Forwarded-For (loopback proxies are trusted), so check the socket too.
			if not (is_loopback(request.conn:ip()) and is_loopback(request.ip)) then
				return 403;
			end
			response.headers.content_type = "application/json";
			response.headers.x_parley_instance = instance_id;
			return json.encode({
				clientSessions = client_session_count();
				rooms = live_room_occupants();
				rejectedPayloads = rejected_payloads();
				roomSweeps = room_sweeps();
			});
		end;
	};
});
