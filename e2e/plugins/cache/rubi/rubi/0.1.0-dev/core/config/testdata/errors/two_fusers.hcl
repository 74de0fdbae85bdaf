fuser "fuse.mine" { # ERROR: More than one fuser enabled
  plugin = "./rubi-fuse-mine"
}
