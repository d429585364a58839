/** The header navigation, in the spec's order (section 2). */
export const navLinks = [
  { to: '/masculino', label: 'Masculino' },
  { to: '/feminino', label: 'Feminino' },
  { to: '/acessorios', label: 'Acessórios' },
  { to: '/eventos', label: 'Eventos' },
  { to: '/sobrenos', label: 'Sobre nós' },
  { to: '/lojas', label: 'Lojas' },
] as const;

/** Outside the spec's header row (it would not fit at 1024 px): the mobile menu and the footer. */
export const topRatedLink = { to: '/topavaliados', label: 'Top Avaliados' } as const;
