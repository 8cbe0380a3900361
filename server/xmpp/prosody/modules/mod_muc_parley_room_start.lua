-- Rooms that only a host may start (`parley_rooms_need_host = true`): a guest whose join would
-- create the room gets recipient-unavailable, the condition clients show as "room not started"
-- (SPEC §4 waiting), until a registered user (a product token behind their credential) starts it.

local st = require "util.stanza";

local rooms_need_host = module:get_option_boolean("parley_rooms_need_host", false);

local function is_host(full_jid)
	local session = prosody.full_sessions[full_jid];
	local claims = session and session.parley_claims;
	return claims ~= nil and claims.type == "registered";
end

module:hook("muc-room-pre-create", function(event)
	if not rooms_need_host or is_host(event.stanza.attr.from) then
		return;
	end
	event.origin.send(st.error_reply(event.stanza, "wait", "recipient-unavailable", "The room has not started yet", module.host));
	return true;
end);
