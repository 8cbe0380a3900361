-- Rooms that only a host may start (`parley_rooms_need_host = true`): a guest whose join would
-- create the room, or enter it while nobody is in it, gets recipient-unavailable, the condition
-- clients show as "room not started" (SPEC §4 waiting), until a registered user (a product token
-- behind their credential) starts it. Rooms are persistent: an empty one is not started.

local st = require "util.stanza";

local rooms_need_host = module:get_option_boolean("parley_rooms_need_host", false);

local function is_host(full_jid)
	local session = prosody.full_sessions[full_jid];
	local claims = session and session.parley_claims;
	return claims ~= nil and claims.type == "registered";
end

local function refuse_guest(event)
	if not rooms_need_host or is_host(event.stanza.attr.from) then
		return;
	end
	event.origin.send(st.error_reply(event.stanza, "wait", "recipient-unavailable", "The room has not started yet", module.host));
	return true;
end

module:hook("muc-room-pre-create", refuse_guest);

-- Before the room's own checks (password, bans): a guest learns only that the room has not started.
module:hook("muc-occupant-pre-join", function(event)
	if not event.is_new_room and not event.room:has_occupant() then
		return refuse_guest(event);
	end
end, 10);
