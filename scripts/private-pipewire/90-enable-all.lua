-- Replaces the packaged main.lua.d/90-enable-all.lua in the private wireplumber: no device
-- monitors (the devices are pipewire-pulse's null sinks), no flatpak portal (it needs D-Bus and
-- wireplumber quits without it), and no suspend-node.lua (a suspended null sink would delay a
-- new stream's first audio).
load_module("metadata")
default_access.properties["enable-flatpak-portal"] = false
default_access.enable()
device_defaults.enable()
stream_defaults.enable()
load_script("intended-roles.lua")
