-- Occupant limit for every room of this MUC component (`parley_max_occupants`; unset = no limit).
-- A join into a full room gets service-unavailable, the XEP-0045 condition for "room full"
-- that clients show as such (PROTOCOL.md). It runs after Prosody's ban (-10) and password (-20)
-- checks, so that a full room still says "banned" or "password required" first (SPEC §8).

local st = require "util.stanza";

local max_occupants = module:get_option_number("parley_max_occupants");

local function occupant_count(room)
	local count = 0;
	for _ in room:each_occupant() do
		count = count + 1;
	end
	return count;
end

module:hook("muc-occupant-pre-join", function(event)
	-- A further session of someone already in the room under the same nick adds no occupant.
	if not max_occupants or not event.is_first_session then
		return;
	end
	local room = event.room;
	if occupant_count(room) >= max_occupants then
		module:log("debug", "%s is full (%d occupants), refusing %s", room.jid, max_occupants, event.stanza.attr.from);
		event.origin.send(st.error_reply(event.stanza, "cancel", "service-unavailable", "The room is full", room.jid));
		return true;
	end
end, -25);
